import { counted } from '../../shared/counted.ts';
import type { OddAnswer } from '../../shared/vocabulary.ts';
import {
  ApiError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitedError,
  type RemoteShoot,
  type RemoteVideo,
  type ShootBody,
  UnauthorizedError,
  type VideoBody,
} from '../api/index.ts';
import { resultFiles } from '../downloads/result-files.ts';
import {
  type InputCheck,
  inputsOf,
  type UnreachableInput,
  unreachableMessage,
} from '../hosting/input-check.ts';
import { type PhotoPreparation, PhotoUnreachable } from '../hosting/prepare-photos.ts';
import { NoWorkingLink, type ServedCopy } from '../hosting/served-copies.ts';
import { CAP_WARNING_SHARE, type CapStanding, capReachedMessage } from '../ledger/caps.ts';
import type { QueueStore } from '../queue/store.ts';
import type { Batch, Job } from '../queue/types.ts';
import type { RateLimit, RequestBudget, Slot } from './budget.ts';
import type { PollPlanner } from './poll-planner.ts';
import { createBody } from './request-bodies.ts';
import type { ServiceKeys } from './service-keys.ts';
import type { TimeScales } from './time-scales.ts';

// The create and poll runner: one request for one job, in a budget slot the pump took, and what its answer
// does to the queue. Creates never pay twice: the intent is committed before the POST, the remote id in the
// same transaction as the 201, and a create is sent again automatically only when nothing can have been
// created (a 429, a 402/401, a connection that failed before a byte left).

/**
 * Polls in a row that may answer oddly about a job the service accepted (404, or completed without a result)
 * before it waits for the user (`oddAnswer`).
 */
const ODD_ANSWER_POLLS = 5;

/** How long to wait before asking again after `tries` answers that were no use: 1 s, 2 s, 4 s… at most 30 s. */
const backOffMs = (tries: number) => Math.min(30_000, 1000 * 2 ** Math.min(5, tries));

export interface JobRunnerOptions {
  store: QueueStore;
  /** The batches the engine drives (it adds to them as it runs). */
  batchIds: ReadonlySet<string>;
  keys: ServiceKeys;
  planner: PollPlanner;
  photos: PhotoPreparation;
  /** Asks the addresses a create hands the service right before it is sent (`hosting/input-check.ts`). */
  inputs: InputCheck;
  rateLimit: RateLimit;
  now: () => number;
  /** Which batches run on the sandbox, whose fixed delays are in its faster time. */
  timeScales: TimeScales;
  onChange: (batchId: string) => void;
  onNotice?: (batchId: string, message: string) => void;
  /** A job completed: it may unlock a video and has results to download. */
  onCompleted: () => void;
}

/**
 * The given addresses that are not the service's own: a model preset from its list (the Sandbox's are on
 * this computer) is the service's address, asked as it is, not input held to the outbound policy.
 */
function notTheService(given: readonly string[], baseUrl: string): string[] {
  const service = URL.parse(baseUrl)?.origin;
  return given.filter((url) => URL.parse(url)?.origin !== service);
}

export class JobRunner {
  private readonly store: QueueStore;
  /**
   * Per job, the odd answer its polls had in a row, and how many: another answer starts the count again (so
   * does a restart).
   */
  private readonly oddInARow = new Map<string, { answer: OddAnswer; polls: number }>();

  constructor(private readonly options: JobRunnerOptions) {
    this.store = options.store;
  }

  private notice(batchId: string, message: string): void {
    this.options.onNotice?.(batchId, message);
  }

  /** A crash between committing an intent and recording its answer leaves the outcome unknown. */
  recoverInterruptedCreates(): void {
    for (const job of this.store.jobs.inState('submitting')) {
      if (!this.options.batchIds.has(job.batchId)) continue;
      this.store.jobs.markOutcomeUnknown(job.id, {
        code: 'interrupted',
        message:
          'Adbatch stopped while this job was being created: the service may have created and charged it.',
      });
      this.options.onChange(job.batchId);
    }
  }

  /** POSTs a waiting job's create. */
  async submit(job: Job, budget: RequestBudget, slot: Slot): Promise<void> {
    const { store, keys, planner } = this.options;
    const batch = store.batches.get(job.batchId)!;
    const client = keys.client(batch)!;
    let body: ShootBody | VideoBody;
    let servedCopies: ServedCopy[];
    let given: string[];
    try {
      ({ body, servedCopies, given } = await createBody(job, store, this.options.photos));
    } catch (error) {
      if (error instanceof NoWorkingLink) {
        // Nothing was sent: the job fails here, and its message says what to do.
        store.jobs.fail(job.id, error.failure);
        this.notice(job.batchId, `${job.kind} ${job.id} was not sent: ${error.message}`);
        this.options.onChange(job.batchId);
        return;
      }
      if (!(error instanceof PhotoUnreachable)) throw error;
      this.options.photos.pause(batch.id, error.message);
      return;
    }
    // Held while its body was made (an input of another of its jobs did not answer, the user paused it):
    // nothing is asked, nor sent. The held input's answer was forgotten for the next try: asked now, it
    // would be asked twice for one hold.
    if (store.batches.get(batch.id)?.status !== 'running') {
      this.options.onChange(job.batchId);
      return;
    }
    const product = store.batches.product(job.productId)!;
    const unreachable = await this.options.inputs.unreachable(
      batch.id,
      inputsOf(body, product.name, notTheService(given, client.baseUrl)),
    );
    if (unreachable.length > 0) {
      this.holdForInputs(batch, unreachable);
      this.options.inputs.forget(batch.id, unreachable);
      return;
    }
    // The body committed here is the one that leaves, served copies and all; a POST that may have reached
    // the service is never sent again by itself (no idempotency key in the contract, see docs/review.md).
    // The caps are read in the same transaction: no other create can take the credits in between.
    const passed = store.db.transaction(() => {
      const current = store.batches.get(batch.id)!;
      // Paused while its body was made (an input of another of its jobs held it, the user): nothing is sent.
      if (current.status !== 'running') return 'paused';
      const cap = store.caps.wouldPass(current, job.price);
      if (!cap) store.jobs.beginSubmit(job.id, body, servedCopies.length > 0 ? { servedCopies } : undefined);
      return cap;
    })();
    if (passed === 'paused') {
      this.options.onChange(job.batchId);
      return;
    }
    if (passed) {
      this.stopAtCap(batch, passed);
      return;
    }
    this.options.onChange(job.batchId);
    try {
      const remote = await slot.send<RemoteShoot | RemoteVideo>(() =>
        job.kind === 'shoot' ? client.createShoot(body as ShootBody) : client.createVideo(body as VideoBody),
      );
      const now = this.options.now();
      const accepted = store.jobs.acceptSubmit(job.id, {
        remoteId: remote.id,
        remoteStatus: remote.status,
        credits: remote.creditsUsed ?? job.price,
        balanceAfter: remote.creditsRemaining,
        deadlineAt: now + planner.deadlineMs(job),
        nextPollAt: now + planner.firstPollDelayMs(job),
      });
      const warning = store.caps.crossedWarning(store.batches.get(batch.id)!, accepted.creditsCharged);
      if (warning) {
        this.notice(
          job.batchId,
          `${warning.label} is ${Math.round(CAP_WARNING_SHARE * 100)} % used: ${warning.committed} credits spent or at stake.`,
        );
      }
      if (remote.creditsUsed !== null && remote.creditsUsed !== job.price) {
        this.notice(
          job.batchId,
          `The service charged ${counted(remote.creditsUsed, 'credit')} for a ${job.kind} priced at ${job.price}.`,
        );
      }
      if (remote.phase !== 'running') this.settleRemote(accepted, remote);
    } catch (error) {
      this.submitFailed(job, batch, budget, error);
    } finally {
      this.options.onChange(job.batchId);
    }
  }

  /**
   * An address the service would fetch does not answer: the job stays unsent, and its batch sends nothing
   * more until the user resumes it (the address fixed, its server answering), rather than paying for jobs
   * the service could only fail.
   */
  private holdForInputs(batch: Batch, inputs: readonly UnreachableInput[]): void {
    const { store } = this.options;
    if (store.batches.get(batch.id)?.status !== 'running') return;
    const message = unreachableMessage(inputs);
    store.batches.setStatus(batch.id, 'paused', 'input_unreachable', message);
    this.notice(batch.id, `Paused: ${message}`);
    this.options.onChange(batch.id);
  }

  /** The next create would pass a cap: the batch pauses with the cap's words, and sends nothing more. */
  private stopAtCap(batch: Batch, cap: CapStanding): void {
    const message = capReachedMessage(cap);
    this.options.store.batches.setStatus(batch.id, 'paused', 'budget', message);
    this.notice(batch.id, `Paused: ${message}`);
    this.options.onChange(batch.id);
  }

  private submitFailed(job: Job, batch: Batch, budget: RequestBudget, error: unknown): void {
    const { store } = this.options;
    if (!(error instanceof ApiError)) {
      store.jobs.markOutcomeUnknown(job.id, { code: 'internal', message: (error as Error).message });
      return;
    }
    const failure = { code: error.code ?? error.kind, message: error.message };
    if (error.maybeSent) {
      store.jobs.markOutcomeUnknown(job.id, failure);
      this.notice(
        batch.id,
        `The service may have created ${job.kind} ${job.id} (${error.message}); up to ${counted(job.price, 'credit')} at stake. It will not be sent again unless you retry it.`,
      );
      return;
    }
    if (error instanceof RateLimitedError) {
      budget.rateLimited(error.retryAfterMs);
      store.jobs.returnToWaiting(job.id, failure);
      return;
    }
    if (error instanceof InsufficientCreditsError) {
      store.jobs.returnToWaiting(job.id, failure);
      store.batches.setStatus(batch.id, 'paused', 'insufficient_credits');
      this.notice(batch.id, `Paused: not enough credits (${error.message}).`);
      return;
    }
    if (error instanceof UnauthorizedError) {
      store.jobs.returnToWaiting(job.id, failure);
      this.refuseKey(batch.keyId, error.message);
      return;
    }
    if (error.kind === 'network') {
      // Nothing reached the service: safe to send again, after a pause (the rate itself is not at fault).
      store.jobs.returnToWaiting(job.id, failure);
      budget.holdOff(this.options.rateLimit.windowMs / 60);
      return;
    }
    store.jobs.fail(job.id, failure);
  }

  /** The service refused a key: every batch made with it pauses, and nothing more is sent with it. */
  private refuseKey(keyId: string, message: string): void {
    const { store, keys } = this.options;
    keys.refuse(keyId);
    for (const batchId of this.options.batchIds) {
      const batch = store.batches.get(batchId);
      if (!batch || batch.keyId !== keyId || batch.status === 'finished' || batch.status === 'cancelled')
        continue;
      store.batches.setStatus(batch.id, 'paused', 'unauthorized');
      this.notice(batch.id, `Stopped: the service refused the API key (${message}).`);
    }
  }

  /** GETs a running job. */
  async poll(job: Job, budget: RequestBudget, slot: Slot): Promise<void> {
    const { store, keys, planner } = this.options;
    const batch = store.batches.get(job.batchId)!;
    const client = keys.client(batch)!;
    const sentAt = this.options.now();
    try {
      const remote = await slot.send<RemoteShoot | RemoteVideo>(() =>
        job.kind === 'shoot' ? client.getShoot(job.remoteId!) : client.getVideo(job.remoteId!),
      );
      const now = this.options.now();
      const elapsed = now - (job.acceptedAt ?? sentAt);
      if (remote.phase !== 'running') {
        this.settleRemote(job, remote);
        return;
      }
      this.oddInARow.delete(job.id);
      // Slow is not dead: a late job is still polled, and given up only long after (poll-planner.ts).
      if (planner.givenUp(job, now)) {
        store.jobs.recordPoll(job.id, remote.status, now);
        store.jobs.markStale(job.id);
        planner.forget(job);
        this.notice(job.batchId, `${job.kind} ${job.id} is still unfinished, hours past its deadline.`);
        return;
      }
      store.jobs.recordPoll(job.id, remote.status, planner.stillRunning(job, elapsed, batch.keyId));
    } catch (error) {
      planner.pollFailed(job.id);
      this.pollFailed(job, batch, budget, error);
    } finally {
      this.options.onChange(job.batchId);
    }
  }

  private pollFailed(job: Job, batch: Batch, budget: RequestBudget, error: unknown): void {
    const { store } = this.options;
    const retryIn = (ms: number) =>
      store.jobs.deferPoll(job.id, this.options.now() + ms, (error as Error).message);
    // Our own delays are in the time of the job's service; a Retry-After is the service's word, in real time.
    const scale = this.options.timeScales.of(job.batchId);
    if (error instanceof RateLimitedError) {
      budget.rateLimited(error.retryAfterMs);
      retryIn(error.retryAfterMs ?? 1000 * scale);
      return;
    }
    if (error instanceof UnauthorizedError) {
      this.refuseKey(batch.keyId, error.message);
      retryIn(0);
      return;
    }
    // A 404 may pass (a read before the write reached every replica, a proxy's blip): polled again.
    if (error instanceof NotFoundError && this.oddAnswer(job, 'not_found')) return;
    // A poll is safe to repeat: back off with the number of polls so far and try again.
    retryIn(backOffMs(job.polls % 6) * scale);
  }

  /**
   * An answer that leaves a job the service accepted and charged in doubt: counted, and after
   * ODD_ANSWER_POLLS of the same in a row the job stops being polled and waits for the user, its charge in
   * doubt, never `failed` with the charge kept. True when it did.
   */
  private oddAnswer(job: Job, answer: OddAnswer): boolean {
    const before = this.oddInARow.get(job.id);
    const polls = before?.answer === answer ? before.polls + 1 : 1;
    if (polls < ODD_ANSWER_POLLS) {
      this.oddInARow.set(job.id, { answer, polls });
      return false;
    }
    this.oddInARow.delete(job.id);
    this.options.store.jobs.markStale(job.id, { answer, polls });
    this.options.planner.forget(job);
    this.notice(
      job.batchId,
      answer === 'not_found'
        ? `The service says it does not know ${job.kind} ${job.id}, which it accepted and charged: it needs you.`
        : `The service says ${job.kind} ${job.id} is done but gives no result to download: it needs you.`,
    );
    return true;
  }

  /** The service finished the job: failed, or results to fetch. */
  private settleRemote(job: Job, remote: RemoteShoot | RemoteVideo): void {
    const { store, planner } = this.options;
    if (remote.phase === 'failed') {
      this.oddInARow.delete(job.id);
      store.jobs.failRemote(job.id, remote.status, {
        code: remote.failure?.code ?? 'generation_failed',
        message: remote.failure?.message ?? 'The service failed this job and refunds its credits.',
      });
      planner.forget(job);
      return;
    }
    const batch = store.batches.get(job.batchId)!;
    const product = store.batches.product(job.productId)!;
    const files = resultFiles(batch, product, remote, store.jobs.earlierOfKind(job));
    if (files.length === 0) {
      // Its results may show in a later answer: asked again, backing off, until it waits for the user.
      store.jobs.noteRemoteStatus(job.id, remote.status);
      if (!this.oddAnswer(job, 'no_results')) {
        const scale = this.options.timeScales.of(job.batchId);
        store.jobs.deferPoll(
          job.id,
          this.options.now() + backOffMs(this.oddInARow.get(job.id)!.polls) * scale,
          'completed without a result to download',
        );
      }
      return;
    }
    const elapsed = this.options.now() - (job.acceptedAt ?? this.options.now());
    if (planner.completed(job, elapsed)) this.aimWaitingPolls(job.kind);
    this.oddInARow.delete(job.id);
    store.jobs.completeRemote(job.id, remote.status, files);
    this.options.onCompleted();
  }

  /** The first duration of a kind is learned: jobs of that kind that were waiting for it now aim their polls. */
  private aimWaitingPolls(kind: Job['kind']): void {
    const { store, planner } = this.options;
    for (const job of store.jobs.runningByNextPoll([...this.options.batchIds], null, 10_000, kind)) {
      const aimed = planner.aimedPollAt(job);
      if (aimed === null) continue;
      if (job.nextPollAt === null || aimed < job.nextPollAt)
        store.jobs.reschedulePoll(job.id, Math.max(aimed, this.options.now()));
    }
  }
}
