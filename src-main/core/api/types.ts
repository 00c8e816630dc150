// Domain types of the client: camelCase, with `null` wherever the service may leave a value out. These are
// what the rest of the engine sees; the wire shapes (snake_case, loose) stay inside schemas.ts.

import type { Mode, Quality, ShootStyle, VideoDuration, VideoResolution } from '../../shared/vocabulary.ts';

export type { ShootStyle, VideoDuration, VideoResolution };
export type GenerationMode = Mode;
export type ShootQuality = Quality;

/** POST /v1/shoots. The service validates every rule; the client only maps names. */
export interface ShootBody {
  productImageUrls: string[];
  style: ShootStyle;
  mode?: GenerationMode;
  /** Required when `mode` is `with_model`. */
  modelUrl?: string;
  shots?: 1 | 4 | 6;
  aspectRatio?: string;
  quality?: ShootQuality;
  backgroundColor?: string;
  callbackUrl?: string;
}

/** POST /v1/videos. */
export interface VideoBody {
  imageUrls: string[];
  duration: VideoDuration;
  resolution: VideoResolution;
  mode?: GenerationMode;
  aspectRatio?: string;
  logoUrl?: string;
  music?: boolean;
  note?: string;
  callbackUrl?: string;
}

/**
 * Where a job stands, whatever the service calls it: only `completed` and `failed` end a job, and any
 * other status, known or not, means it is still running (DESIGN: accept unknown statuses as running).
 */
export type JobPhase = 'running' | 'completed' | 'failed';

export interface JobFailure {
  code: string | null;
  message: string | null;
}

export interface RemoteImage {
  url: string | null;
  thumbnailUrl: string | null;
  status: string | null;
}

export interface RemoteShoot {
  id: string;
  /** The service's status verbatim (it may be one we do not know). */
  status: string;
  phase: JobPhase;
  shots: number | null;
  /** True only when the service said a requested 6 was clamped to 4. */
  shotsAdjusted: boolean;
  creditsUsed: number | null;
  creditsRemaining: number | null;
  images: RemoteImage[];
  createdAt: string | null;
  failure: JobFailure | null;
}

export interface RemoteVideo {
  id: string;
  status: string;
  phase: JobPhase;
  videoUrl: string | null;
  creditsUsed: number | null;
  creditsRemaining: number | null;
  createdAt: string | null;
  failure: JobFailure | null;
}

export interface CreditBalance {
  credits: number;
  /** True for an agency key, whose balance is the agency's shared pool. */
  pool: boolean;
  /** The agency's name for an agency key; null otherwise. */
  tenant: string | null;
}

export interface UsageRow {
  brandId: string | null;
  brandName: string | null;
  images: number | null;
  imageCredits: number | null;
  videos: number | null;
  videoCredits: number | null;
}

export interface UsageReport {
  period: {
    from: string | null;
    /** Null when the period is open (the service's literal `now`). */
    to: string | null;
  };
  /** One row per client brand for agency keys; usually empty for personal keys. */
  rows: UsageRow[];
  totals: { images: number | null; videos: number | null; credits: number | null };
}

export interface UsageQuery {
  from?: Date | string;
  to?: Date | string;
  brandId?: string;
}

export interface ClientBrand {
  id: string;
  name: string | null;
  active: boolean;
  createdAt: string | null;
}

export interface Model {
  id: string;
  name: string | null;
  /** Usable as `modelUrl` in a shoot. */
  imageUrl: string | null;
  isPreset: boolean | null;
  tags: string[];
}

/** GET /v1/health. Its body is not shown: any 2xx means up, and the fields are filled when present. */
export interface HealthStatus {
  ok: true;
  status: string | null;
  version: string | null;
  /** True when the service says it is a sandbox (the embedded emulator does). */
  sandbox: boolean;
}
