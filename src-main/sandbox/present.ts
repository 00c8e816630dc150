import { shotFile, thumbnailFile, VIDEO_FILE } from './results.ts';
import type { UsageRow } from './service.ts';
import type { Brand, Job, ShootJob, VideoJob } from './state.ts';

// The JSON shapes of the description. Sandbox choices: a failed job carries `error: {code, message}`;
// `video_url` is null until the video is completed; times are ISO 8601 in UTC.

const iso = (ms: number) => new Date(ms).toISOString();

function failure(job: Job) {
  return job.status === 'failed' && job.failure ? { error: job.failure } : {};
}

export function presentShoot(job: ShootJob, baseUrl: string) {
  const completed = job.status === 'completed';
  const assets = `${baseUrl}/cdn/${job.assetToken}`;
  return {
    id: job.id,
    object: 'shoot',
    status: job.status,
    shots: job.shots,
    ...(job.shotsAdjusted ? { shots_adjusted: true } : {}),
    credits_used: job.credits,
    credits_remaining: job.creditsRemaining,
    images: completed
      ? Array.from({ length: job.shots }, (_, index) => ({
          url: `${assets}/${shotFile(index)}`,
          thumbnail_url: `${assets}/${thumbnailFile(index)}`,
          status: 'completed',
        }))
      : [],
    created_at: iso(job.createdAt),
    ...failure(job),
  };
}

export function presentVideo(job: VideoJob, baseUrl: string) {
  return {
    id: job.id,
    object: 'video',
    status: job.status,
    video_url: job.status === 'completed' ? `${baseUrl}/cdn/${job.assetToken}/${VIDEO_FILE}` : null,
    credits_used: job.credits,
    credits_remaining: job.creditsRemaining,
    created_at: iso(job.createdAt),
    ...failure(job),
  };
}

export function presentJob(job: Job, baseUrl: string) {
  return job.kind === 'shoot' ? presentShoot(job, baseUrl) : presentVideo(job, baseUrl);
}

export function presentBrand(brand: Brand) {
  return {
    id: brand.id,
    object: 'brand',
    name: brand.name,
    active: brand.active,
    created_at: brand.createdAt,
  };
}

export function presentUsage(
  period: { from: number; to: number | null },
  rows: UsageRow[],
  totals: UsageRow,
) {
  return {
    object: 'usage_report',
    period: { from: iso(period.from), to: period.to === null ? 'now' : iso(period.to) },
    data: rows.map((row) => ({
      brand_id: row.brandId,
      brand_name: row.brandName,
      images: row.images,
      image_credits: row.imageCredits,
      videos: row.videos,
      video_credits: row.videoCredits,
    })),
    totals: {
      images: totals.images,
      videos: totals.videos,
      credits: totals.imageCredits + totals.videoCredits,
    },
  };
}
