import type { JobView } from '../../../src-main/shared/models.ts';
import type { JobDecision } from '../../../src-main/shared/vocabulary.ts';
import { credits, decisionWords, jobStateWords } from '../../../src-main/shared/words.ts';

export type DecideOnJob = (action: JobDecision, job: JobView) => void;

/** What a job's state is said against: a paused batch, one whose results cannot be written. */
export interface BatchMoment {
  paused: boolean;
  /** The batch is paused because its results cannot be written: a downloading job waits for that. */
  savingBlocked: boolean;
}

/** A job's kind and its state in the words of the moment: "video done". */
export function JobState({ job, moment }: { job: JobView; moment: BatchMoment }) {
  return (
    <span className={`job job-${job.state}`}>
      <span className="job-kind">{job.kind}</span>{' '}
      <span className="job-state">{jobStateWords(job, moment)}</span>
    </span>
  );
}

/** Why a job failed, and what core allows deciding about it now; nothing when there is neither. */
export function JobNote({ job, onDecide }: { job: JobView; onDecide: DecideOnJob }) {
  if (!job.failureMessage && job.decisions.length === 0) return null;
  return (
    <div className="job-note">
      <span className="job-kind">{job.kind}:</span>
      {job.failureMessage && <small className="job-reason">{job.failureMessage}</small>}
      {/* What core allows for this job, and nothing else: a button here is a decision core accepts. */}
      {job.decisions.length > 0 && (
        <span className="job-actions">
          {job.creditsAtStake > 0 && <small>{credits(job.creditsAtStake)} may already be charged</small>}
          {job.decisions.map((decision) => (
            <button key={decision} type="button" onClick={() => onDecide(decision, job)}>
              {decisionWords(decision, job)}
            </button>
          ))}
        </span>
      )}
    </div>
  );
}
