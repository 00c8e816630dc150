// What the renderer sees of the domain: plain data, no paths it could misuse, no secrets. Local images are
// given as URLs that main (or the browser harness) serves from an allow-list, never as `file://`.

export type Mode = 'product_only' | 'with_model';
export type Quality = 'standard' | 'pro' | '4k';
export type ShootStyle =
  | 'classic'
  | 'minimal'
  | 'luxury'
  | 'loud_luxury'
  | 'magazine'
  | 'editorial'
  | 'avant_garde'
  | 'element'
  | 'influencer'
  | 'lifestyle';

export interface ShootSettingsView {
  style: ShootStyle;
  shots: 1 | 4 | 6;
  quality: Quality;
  aspectRatio: string;
  mode: Mode;
  modelUrl: string | null;
  backgroundColor: string | null;
}

export interface VideoSettingsView {
  duration: 5 | 10 | 15;
  resolution: '480p' | '720p' | '1080p';
  mode: Mode;
  aspectRatio: string | null;
}

export interface AppInfo {
  version: string;
  platform: string;
  libraryDir: string;
}

export interface AccountView {
  id: string;
  name: string;
  kind: 'sandbox' | 'service';
  baseUrl: string;
  /** The key's last characters only: `...a1b2`. */
  keyHint: string;
  type: 'personal' | 'agency' | null;
  agencyName: string | null;
  balance: number | null;
  checkedAt: number | null;
  /** Set when the service refused the key (401): its batches are paused. */
  refusedAt: number | null;
}

export interface NewAccount {
  name: string;
  baseUrl: string;
  apiKey: string;
}

export interface ModelView {
  id: string;
  name: string;
  imageUrl: string;
}

export interface ProblemView {
  file: string;
  reason: string;
  severity: 'error' | 'warning';
  code: string;
}

export interface PhotoView {
  file: string;
  width: number | null;
  height: number | null;
  /** A URL the renderer can show: the cached thumbnail, or the catalog URL. */
  thumbnailUrl: string | null;
  converted: string | null;
}

export interface ScannedProductView {
  name: string;
  path: string;
  /** Hero first. */
  photos: PhotoView[];
}

export interface ScanView {
  scanId: string;
  products: ScannedProductView[];
  problems: ProblemView[];
  skipped: number;
}

export interface QuoteRequest {
  scanId: string;
  accountId: string;
  shoot: ShootSettingsView;
  video: VideoSettingsView | null;
  includeDone: boolean;
}

export interface QuoteView {
  products: Array<{
    product: string;
    shots: number;
    clamped: boolean;
    shootCredits: number;
    videoCredits: number;
    credits: number;
  }>;
  credits: number;
  balance: number | null;
  shortfall: number;
  /** Products set aside as already shot (or being shot) with these photos and settings. */
  setAside: ProblemView[];
}

export interface NewBatchRequest extends QuoteRequest {
  name: string;
}

export type BatchStatus = 'running' | 'paused' | 'cancelled' | 'finished';

export interface BatchSummary {
  id: string;
  name: string;
  accountName: string;
  sandbox: boolean;
  status: BatchStatus;
  statusReason: string | null;
  createdAt: number;
  products: number;
  jobs: number;
  done: number;
  failed: number;
  /** Jobs needing a decision: outcome unknown or stale. */
  attention: number;
  quotedCredits: number;
  creditsSpent: number;
  creditsRefunded: number;
}

export interface JobView {
  id: string;
  kind: 'shoot' | 'video';
  state: string;
  remoteStatus: string | null;
  price: number;
  creditsCharged: number;
  creditsRefunded: number;
  failureCode: string | null;
  failureMessage: string | null;
  /** Result thumbnails (images) and the video, as they land. */
  results: Array<{ kind: 'image' | 'thumbnail' | 'video'; url: string }>;
}

export interface ProductProgressView {
  id: string;
  name: string;
  heroUrl: string | null;
  jobs: JobView[];
}

export interface BatchDetail extends BatchSummary {
  shoot: ShootSettingsView;
  video: VideoSettingsView | null;
  /** Estimated ms until done, or null when unknown. */
  etaMs: number | null;
  items: ProductProgressView[];
}

export interface BatchProgress {
  id: string;
  name: string;
  status: BatchStatus;
  statusReason: string | null;
  jobs: number;
  done: number;
  failed: number;
  attention: number;
  creditsSpent: number;
  creditsRefunded: number;
}

export interface Settings {
  libraryDir: string;
  /** Share of the service's rate limit kept free for other apps using the same key, in percent. */
  budgetMarginPercent: number;
}
