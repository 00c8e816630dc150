import { counted } from '../../../../src-main/shared/counted.ts';
import type { BatchDetail, JobView } from '../../../../src-main/shared/models.ts';
import {
  batchMoney,
  COUNTED,
  moneyWords,
  outcomesOf,
  outcomeWords,
} from '../../../../src-main/shared/money-words.ts';
import type { JobState } from '../../../../src-main/shared/vocabulary.ts';
import { credits } from '../../format.ts';

// The batch page in a designer's words (issue 14, points 12 and 13): products shot and videos made, not
// "jobs"; what Pause can still hold back, and what is already paid. A job's state and the decisions on it
// are in the words every front end shares (src-main/shared/words.ts).

/**
 * "4 of 13 products shot; 13 videos: 2 made, 1 failed, 10 under way": a product counts as shot once
 * a shoot of it is done; its shoots are counted by outcome too when one did not go well, its videos always
 * (in the words every front end counts with: a failure is never counted as made).
 */
export function progressWords(detail: Pick<BatchDetail, 'items'>): string {
  const jobs = detail.items.flatMap((item) => item.jobs);
  const statesOf = (kind: JobView['kind']) => {
    const states: Partial<Record<JobState, number>> = {};
    for (const job of jobs) if (job.kind === kind) states[job.state] = (states[job.state] ?? 0) + 1;
    return states;
  };
  const shot = detail.items.filter((item) => item.jobs.some((job) => job.kind === 'shoot'));
  const done = shot.filter((item) => item.jobs.some((job) => job.kind === 'shoot' && job.state === 'done'));
  const parts = [`${done.length} of ${counted(shot.length, 'product')} shot`];
  const shoots = statesOf('shoot');
  const { made, underWay } = outcomesOf(shoots);
  if (made + underWay < jobs.filter((job) => job.kind === 'shoot').length) {
    parts.push(outcomeWords(shoots, COUNTED.shoot));
  }
  if (jobs.some((job) => job.kind === 'video')) parts.push(outcomeWords(statesOf('video'), COUNTED.video));
  return parts.join('; ');
}

/** Beside the quote: what the service has charged, refunded and kept, said as such while nothing is finished. */
export function chargedWords(
  detail: Pick<BatchDetail, 'creditsSpent' | 'creditsRefunded' | 'quotedCredits' | 'done'>,
): string {
  const charged = moneyWords(batchMoney(detail), detail.quotedCredits);
  return detail.creditsSpent > 0 && detail.done === 0
    ? `${charged} (each shoot and video is charged when it is sent, before it is finished)`
    : charged;
}

/**
 * What pausing now can still hold back: the jobs not sent yet, with their credits; when every shoot was
 * sent, that those credits are spent and only videos can be held.
 */
export function pauseWords(detail: Pick<BatchDetail, 'items'>): string {
  const jobs = detail.items.flatMap((item) => item.jobs);
  const unsent = (kind: JobView['kind']) =>
    jobs.filter((job) => job.kind === kind && job.state === 'waiting');
  const shoots = unsent('shoot');
  const videos = unsent('video');
  const held = [...shoots, ...videos].reduce((sum, job) => sum + job.price, 0);
  if (shoots.length === 0 && videos.length === 0) {
    return 'Everything has been sent and charged: pausing now holds nothing back.';
  }
  const sentShoots = jobs.filter((job) => job.kind === 'shoot' && job.state !== 'waiting');
  if (shoots.length === 0) {
    const spent = sentShoots.reduce((sum, job) => sum + job.price, 0);
    return `Every shoot has been sent: their ${credits(spent)} are spent. Pausing now holds only the ${counted(videos.length, 'video')} not sent yet (${credits(held)}).`;
  }
  const waiting = [
    counted(shoots.length, 'shoot'),
    ...(videos.length > 0 ? [counted(videos.length, 'video')] : []),
  ];
  return `Pausing now holds the ${waiting.join(' and ')} not sent yet (${credits(held)}); what was sent is charged.`;
}
