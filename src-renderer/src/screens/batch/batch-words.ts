import { counted } from '../../../../src-main/shared/counted.ts';
import type { BatchDetail, JobView } from '../../../../src-main/shared/models.ts';
import { credits } from '../../format.ts';

// The batch page in a designer's words (issue 14, points 12 and 13): products shot and videos made, not
// "jobs"; what Pause can still hold back, and what is already paid. A job's state and the decisions on it
// are in the words every front end shares (src-main/shared/words.ts).

/** "4 of 13 products shot, 2 of 13 videos made": a product counts once its first shoot is done. */
export function progressWords(detail: Pick<BatchDetail, 'items'>): string {
  const withKind = (kind: JobView['kind']) =>
    detail.items.filter((item) => item.jobs.some((job) => job.kind === kind));
  const doneIn = (items: BatchDetail['items'], kind: JobView['kind']) =>
    items.filter((item) => item.jobs.some((job) => job.kind === kind && job.state === 'done')).length;
  const shot = withKind('shoot');
  const parts = [`${doneIn(shot, 'shoot')} of ${counted(shot.length, 'product')} shot`];
  const filmed = withKind('video');
  if (filmed.length > 0) parts.push(`${doneIn(filmed, 'video')} of ${counted(filmed.length, 'video')} made`);
  return parts.join(', ');
}

/** "Charged" beside the quote: what the service has charged so far, said as such while nothing is finished. */
export function chargedWords(detail: Pick<BatchDetail, 'creditsSpent' | 'quotedCredits' | 'done'>): string {
  const charged = `${credits(detail.creditsSpent)} charged by the service, of ${credits(detail.quotedCredits)} quoted`;
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
