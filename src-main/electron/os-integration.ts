import type { CoreEvents } from '../core/app/events.ts';
import type { BatchProgress } from '../shared/models.ts';
import { countedJobs, outcomeWords } from '../shared/money-words.ts';
import { capitalized, needsYouWords, SERVICE_TROUBLE_BADGE } from '../shared/words.ts';

// Dock/taskbar progress for running batches, and a notification when a batch finishes, ends needing the
// user (credits in doubt), or needs them on the way (credits ran out, a key was refused, the photos could
// not be uploaded, an outcome is unknown), when its service stops answering, or when an agent asks to spend.

export interface OsSurface {
  /** 0..1, or -1 to clear. */
  setProgress(fraction: number): void;
  notify(title: string, body: string): void;
}

/** What changed that the user should hear about, or null. */
export function noticeFor(
  before: BatchProgress | undefined,
  now: BatchProgress,
): { title: string; body: string } | null {
  // A batch that ends with credits in doubt is not done: it says what is at stake and what to do.
  if (before?.status !== 'needs_you' && now.status === 'needs_you') {
    return { title: `${now.name} needs you`, body: needsYouWords(now) ?? '' };
  }
  if (before?.status !== 'finished' && now.status === 'finished') {
    return { title: `${now.name} is done`, body: `${outcomeWords(now.states, countedJobs(now))}.` };
  }
  if (before?.statusReason !== now.statusReason && now.status === 'paused') {
    if (now.statusReason === 'insufficient_credits') {
      return { title: `${now.name} is paused`, body: 'The account ran out of credits. Top up, then resume.' };
    }
    if (now.statusReason === 'unauthorized') {
      return {
        title: `${now.name} is paused`,
        body: 'The service refused the API key. Check the account in Settings.',
      };
    }
    if (now.statusReason === 'library') {
      return {
        title: `${now.name} is paused`,
        body: now.statusMessage ?? 'Its results could not be saved in the library. They stay owed.',
      };
    }
    if (now.statusReason === 'input_unreachable') {
      return {
        title: `${now.name} is paused`,
        body: now.statusMessage ?? 'An address the service would fetch does not answer. Fix it, then resume.',
      };
    }
    if (now.statusReason === 'hosting') {
      return {
        title: `${now.name} is paused`,
        body: 'Its photos could not be uploaded to the photo storage. Check it in Settings, then resume.',
      };
    }
  }
  // A service that stops answering while the designer is away: said once as it starts, not at each poll.
  if (before && before.serviceTrouble === null && now.serviceTrouble !== null) {
    return {
      title: `${now.name} is waiting on the service`,
      body: `${capitalized(SERVICE_TROUBLE_BADGE[now.serviceTrouble.kind])} (${now.serviceTrouble.reason}). Adbatch keeps asking, and says when the batch is done.`,
    };
  }
  if (now.attention > (before?.attention ?? 0)) {
    return {
      title: `${now.name} needs a decision`,
      // Which decisions each allows (an unknown outcome, a stale or an owed job) is core's to say, on the batch's page.
      body: `${now.attention === 1 ? '1 shoot or video waits' : `${now.attention} shoots or videos wait`} for your decision: open the batch to see what each allows.`,
    };
  }
  return null;
}

export function attachOsIntegration(
  events: CoreEvents,
  surface: OsSurface,
  initial: BatchProgress[],
): () => void {
  const latest = new Map(initial.map((progress) => [progress.id, progress]));
  const refresh = () => {
    const running = [...latest.values()].filter((progress) => progress.status === 'running');
    const jobs = running.reduce((sum, progress) => sum + progress.jobs, 0);
    const settled = running.reduce((sum, progress) => sum + progress.done + progress.failed, 0);
    surface.setProgress(jobs === 0 ? -1 : settled / jobs);
  };
  refresh();
  const offProgress = events.on('batches:progress', (progress) => {
    const notice = noticeFor(latest.get(progress.id), progress);
    latest.set(progress.id, progress);
    if (notice) surface.notify(notice.title, notice.body);
    refresh();
  });
  const offAgents = events.on('agents:changed', (request) => {
    if (request.state !== 'pending') return;
    surface.notify(
      `${request.client} asks to spend ${request.credits} credits`,
      `“${request.name}”: approve or decline it in Adbatch, Requests.`,
    );
  });
  return () => {
    offProgress();
    offAgents();
  };
}
