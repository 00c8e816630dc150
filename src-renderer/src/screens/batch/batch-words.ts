import { counted } from '../../../../src-main/shared/counted.ts';
import type {
  BatchDetail,
  CatalogView,
  JobView,
  ShootSettingsView,
  VideoSettingsView,
} from '../../../../src-main/shared/models.ts';
import { credits } from '../../format.ts';

// The batch page in a designer's words (issue 14, points 12 and 13): products shot and videos made, not
// "jobs"; a job's state as what is happening to it; what Pause can still hold back, and what is already paid.

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

/** What is happening to a job, as a designer says it. */
export function jobStateWords(job: JobView, batch: { paused: boolean; savingBlocked: boolean }): string {
  const thing = job.kind === 'shoot' ? 'shoot' : 'video';
  switch (job.state) {
    case 'waiting':
      return batch.paused ? `${thing} waiting for the pause to end` : 'waiting its turn';
    case 'submitting':
      return 'being sent';
    case 'running':
      return job.remoteStatus === 'pending' || job.remoteStatus === 'queued'
        ? 'queued at the service'
        : 'being made';
    case 'downloading':
      return batch.savingBlocked ? 'paid, waiting to be saved' : 'being downloaded';
    case 'owed':
      return 'paid, not downloaded';
    case 'done':
      return 'done';
    case 'failed':
      return 'failed (refunded)';
    case 'cancelled':
      return 'cancelled';
    case 'outcome_unknown':
      return 'outcome unknown';
    case 'stale':
      return 'no answer from the service';
    case 'abandoned':
      return 'abandoned';
    default:
      return job.state;
  }
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

/** The settings a batch ran with, in the catalog's words where it is loaded: "Classic · 4 shots · 1:1 · Standard". */
export function shootWords(shoot: ShootSettingsView, catalog: CatalogView | null): string {
  const style = catalog?.styles.find((one) => one.id === shoot.style)?.label ?? shoot.style;
  const quality = catalog?.qualities.find((one) => one.id === shoot.quality)?.label ?? shoot.quality;
  const mode = shoot.mode === 'with_model' ? ' · with a model' : '';
  const background = shoot.backgroundColor ? ` · background ${shoot.backgroundColor}` : '';
  return `${style} · ${counted(shoot.shots, 'shot')} · ${shoot.aspectRatio} · ${quality}${mode}${background}`;
}

/** A video's settings: "10 s · 720p · as its photos". */
export function videoWords(video: VideoSettingsView): string {
  return `${video.duration} s · ${video.resolution} · ${video.aspectRatio ?? 'as its photos'}${video.mode === 'with_model' ? ' · with a model' : ''}`;
}
