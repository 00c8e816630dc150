import type { ProductIdentity } from '../../shared/models.ts';
import type {
  BatchStatus,
  JobKind,
  JobState,
  Mode,
  PauseReason,
  Quality,
  ShootStyle,
  ShotCount,
  VideoAspectRatio,
  VideoDuration,
  VideoResolution,
} from '../../shared/vocabulary.ts';
import type { AccountId, AssetId, BatchId, JobId, ProductId } from './ids.ts';

export interface ShootSettings {
  style: ShootStyle;
  shots: ShotCount;
  quality: Quality;
  aspectRatio: string;
  mode: Mode;
  modelUrl: string | null;
  backgroundColor: string | null;
}

export interface VideoSettings {
  duration: VideoDuration;
  resolution: VideoResolution;
  mode: Mode;
  aspectRatio: VideoAspectRatio | null;
  /** The shots it is made from, in order (videos from the picks); absent: its shoot's first shots. */
  images?: number[];
  /** A logo to reveal in the ad: a public URL. */
  logoUrl?: string | null;
  /** Or a logo file: its copy in the data folder (`review/logo-files.ts`), served like the photos. */
  logoFile?: string;
  /** A background track; the service's default is on. */
  music?: boolean;
  /** Creative direction for the service. */
  note?: string | null;
}

export interface Photo {
  /** A local file, made reachable by the hosting layer when its job is sent (a converted copy if needed). */
  path: string | null;
  /** A URL that is already public (catalogs); used as it is. */
  url: string | null;
  /** The original file or URL, for people to read: differs from `path` when the photo was converted. */
  source?: string;
  /** sha256 of the original file's bytes; absent for catalog URLs and batches made before ingest checked. */
  hash?: string | null;
  width?: number | null;
  height?: number | null;
}

export interface NewProduct {
  name: string;
  sourceDir: string;
  /** The product's place under the folder it was dropped with ('' when unknown), mirrored by exports. */
  path?: string;
  /** Hero first. */
  photos: Photo[];
  /** What ingest read of its identity (core/products/), stored with it. */
  identity?: Partial<ProductIdentity>;
}

export interface NewBatch {
  name: string;
  /** The account whose key sends the batch's jobs. */
  accountId: AccountId;
  baseUrl: string;
  /** A one-way hash of the API key: groups a key's request budget without storing the key. */
  keyId: string;
  keyHint: string;
  sandbox: boolean;
  libraryDir: string;
  shoot: ShootSettings;
  video: VideoSettings | null;
  /** Videos made after review from the picks: their settings, for the Make videos dialog; no video job yet. */
  videosAfterReview?: VideoSettings | null;
  /** The client brand it is billed to (agency keys); its monthly cap holds for it. */
  brandId?: string | null;
  /** The most the batch may spend, in credits, whatever its brand's cap; null or absent: no cap of its own. */
  creditCap?: number | null;
  /** The agent whose request made it (its MCP client's name), once a person approved it; null: a person's. */
  agentClient?: string | null;
  products: NewProduct[];
}

export interface Batch {
  id: BatchId;
  name: string;
  createdAt: number;
  accountId: AccountId;
  baseUrl: string;
  /** The one-way id of the key the jobs were sent with: the key's request budget is filed under it. */
  keyId: string;
  keyHint: string;
  sandbox: boolean;
  libraryDir: string;
  shoot: ShootSettings;
  video: VideoSettings | null;
  /** The settings chosen for videos made after review, from the picks; null when they are not. */
  videosAfterReview: VideoSettings | null;
  quotedCredits: number;
  status: BatchStatus;
  statusReason: PauseReason | null;
  /** The reason in words, where it needs more than its code (a storage failure's cause). */
  statusMessage: string | null;
  updatedAt: number;
  brandId: string | null;
  creditCap: number | null;
  /** The agent whose request made it (its MCP client's name); null: a person's. */
  agentClient: string | null;
}

export interface Product {
  id: ProductId;
  batchId: BatchId;
  position: number;
  name: string;
  sourceDir: string;
  path: string;
  /** See productFingerprint: null for products stored before it was kept. */
  fingerprint: string | null;
  photos: Photo[];
}

export interface Job {
  id: JobId;
  batchId: BatchId;
  productId: ProductId;
  kind: JobKind;
  afterJobId: JobId | null;
  settings: ShootSettings | VideoSettings;
  request: unknown;
  price: number;
  state: JobState;
  remoteId: string | null;
  remoteStatus: string | null;
  creditsCharged: number;
  creditsRefunded: number;
  posts: number;
  polls: number;
  createdAt: number;
  submittedAt: number | null;
  acceptedAt: number | null;
  finishedAt: number | null;
  nextPollAt: number | null;
  /** When a poll last found it still running at the service: its duration is longer than that (eta.ts). */
  lastPolledRunningAt: number | null;
  deadlineAt: number | null;
  failureCode: string | null;
  failureMessage: string | null;
}

export interface Asset {
  id: AssetId;
  jobId: JobId;
  kind: 'image' | 'thumbnail' | 'video';
  idx: number;
  url: string;
  /** Relative to the batch's library dir. */
  path: string;
  state: 'pending' | 'done' | 'failed';
  bytes: number | null;
  sha256: string | null;
  attempts: number;
  error: string | null;
}

export interface Failure {
  code: string;
  message: string;
}

/** A product of an earlier batch made from the same photos with the same settings. */
export interface EarlierShot {
  batchId: BatchId;
  batchName: string;
  productName: string;
  /** `done`: every job finished; `running`: still being made. */
  state: 'done' | 'running';
}
