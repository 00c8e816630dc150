// What the renderer sees of the domain: plain data, no paths it could misuse, no secrets. Local images are
// given as URLs that main (or the browser harness) serves from an allow-list, never as `file://`.

// Types only: every closed set a view names (states, reasons, kinds, the catalog's choices) is declared once
// in vocabulary.ts, and a view is typed by it, never by `string`.
import type { Recipe } from './export-recipe.ts';
import type { PriceBreakdown } from './price.ts';
import type {
  AgentRequestState,
  BatchDecision,
  BatchViewStatus,
  ExportFront,
  ExportState,
  IdentityField,
  JobDecision,
  JobKind,
  JobState,
  Mode,
  PauseReason,
  PreflightError,
  PreflightWarning,
  Quality,
  RejectReason,
  ResultKind,
  ReviewFlag,
  ReviewLabel,
  ShootStyle,
  ShotCount,
  VideoAspectRatio,
  VideoDuration,
  VideoResolution,
} from './vocabulary.ts';

export interface ShootSettingsView {
  style: ShootStyle;
  shots: ShotCount;
  quality: Quality;
  aspectRatio: string;
  mode: Mode;
  modelUrl: string | null;
  backgroundColor: string | null;
}

export interface VideoSettingsView {
  duration: VideoDuration;
  resolution: VideoResolution;
  mode: Mode;
  /** null: chosen by the service from the images. */
  aspectRatio: VideoAspectRatio | null;
}

/** The choices a batch is made of, with what each costs, as core/catalog.ts defines them. */
export interface CatalogView {
  /** `sixShots`: a requested 6 is honoured; in the other styles it becomes `clampedShots`. */
  /** `swatch`: a CSS background that shows the style in a picker. */
  styles: Array<{ id: ShootStyle; label: string; sixShots: boolean; swatch: string }>;
  clampedShots: number;
  qualities: Array<{ id: Quality; label: string; creditsPerImage: number }>;
  shotCounts: ShotCount[];
  shootAspectRatios: string[];
  modes: Array<{ id: Mode; label: string }>;
  /** `sourceImages`: the most of a product's shots a video of this length is made from. */
  videoDurations: Array<{ seconds: VideoDuration; sourceImages: number }>;
  videoResolutions: Array<{ id: VideoResolution; creditsPerSecond: number }>;
  videoAspectRatios: VideoAspectRatio[];
  /** Where the New batch screen starts. */
  defaults: { shoot: ShootSettingsView; video: VideoSettingsView };
}

export interface AppInfo {
  version: string;
  platform: string;
  libraryDir: string;
  queue: QueueOwnerView;
}

/**
 * One process drives a data folder's queue. `driving`: this one does; otherwise `heldBy` names the one
 * that does ("adbatch run (pid 4321)"), and this one takes over when it lets go.
 */
export interface QueueOwnerView {
  driving: boolean;
  heldBy: string | null;
  /** Why this process, though it drives the queue, sends nothing: its data folder cannot be written. */
  fault: string | null;
  /** The fault is a damaged database: it lasts until a backup is put in its place. */
  databaseDamaged: boolean;
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
  /**
   * Agency keys: the client brand the user says the key is pinned to (the service does not say), null when
   * it is not pinned; always null for personal keys and the Sandbox.
   */
  brandId: string | null;
  brandName: string | null;
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
  /** Where a catalog names it, for a catalog's URL: "products.csv, row 12" (a JSON catalog's "item 3"). */
  place?: string;
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
  /** sha256 of the photo's bytes; null for a catalog URL. */
  hash: string | null;
  /** The public URL a catalog gave; null for a file on this computer. */
  url: string | null;
  /** Where the photo really is, when a link that leaves the dropped folder led to it; null otherwise. */
  realPath: string | null;
}

export interface ScannedProductView {
  name: string;
  path: string;
  /** Left out of the batch by the designer: not quoted, not shot. */
  leftOut: boolean;
  /** Hero first. */
  photos: PhotoView[];
}

/**
 * A folder Adbatch wrote, never scanned as products (issue 27): its library, a batch's folder of results,
 * a folder of results inside that (a product's, its thumbnails'), an export folder, its data folder. Known
 * by path or by the mark Adbatch leaves in it.
 */
export type AdbatchFolderKind = 'library' | 'batch' | 'results' | 'export' | 'data';

/** A file or folder passed over by the scan, and why; `adbatchFolder` when Adbatch wrote it (or the file is a copy of its own). */
export interface SkippedView {
  file: string;
  reason: string;
  adbatchFolder?: AdbatchFolderKind;
}

/** A folder as the folder browser shows it (`folders:list`): where it is, the way up, the folders inside. */
export interface FolderListing {
  path: string;
  /** The folder above, or null at the top the browser may show (the user's home). */
  parent: string | null;
  /** The folders inside, in the order a person reads their names; hidden ones (.cache) left out. */
  folders: Array<{ name: string; path: string }>;
}

export interface ScanView {
  scanId: string;
  products: ScannedProductView[];
  problems: ProblemView[];
  /** System junk passed over without a word (.DS_Store, Thumbs.db), listed apart from the problems. */
  skipped: number;
  /** Folders of photos inside another (`linen-shirt/detail`), and whether each went into the one above. */
  nested: Array<{ folder: string; parent: string; merged: boolean }>;
  /** Products whose every photo was turned away, with the reasons. */
  dropped: Array<{ name: string; folder: string; reasons: string[] }>;
  /** Each file and folder passed over: junk, notes, and (with `adbatchFolder`) what Adbatch wrote. */
  skippedFiles: SkippedView[];
}

export interface QuoteRequest {
  scanId: string;
  accountId: string;
  shoot: ShootSettingsView;
  video: VideoSettingsView | null;
  /** When `video` is made: `at_once` from each shoot's first shots (absent: this), `after_review` from the
   * picks, in Make videos, with these settings; the batch then has no video job. */
  videoWhen?: VideoWhen;
  includeDone: boolean;
  /** Agency accounts: the client brand billed (its monthly cap holds); null or absent: none. */
  brandId?: string | null;
  /** The most this batch may spend, in credits; null or absent: no cap of its own. */
  creditCap?: number | null;
}

export type VideoWhen = 'at_once' | 'after_review';

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
  /** How one shoot's price and one video's (at once or after review) add up, for the lines under the cost. */
  prices: { shoot: PriceBreakdown; video: PriceBreakdown | null };
  balance: number | null;
  /**
   * Of `balance`, what the key's jobs not yet charged will take (waiting in a running batch, being sent):
   * `shortfall` is counted against the balance less these, as the batch's start is (core/queue/spend.ts).
   */
  promised: number;
  shortfall: number;
  /** Products set aside as already shot (or being shot) with these photos and settings. */
  setAside: ProblemView[];
  photos: PhotoReach;
  /** With videos after review: what one product's video will cost, charged when it is made (not in
   * `credits`); null otherwise. */
  videoLaterCredits: number | null;
  /** The brand's monthly cap and the batch's own, where set; the batch does not start if one `passes`. */
  caps: CapPreview[];
  /**
   * Set when the batch is billed to a brand but sent with a key not pinned to it: the service will not
   * attribute its spend to the brand (it reports it unassigned). The words to show.
   */
  attributionWarning: string | null;
  /**
   * The export recipes the designer used lately for this brand that the chosen quality's shots will be too
   * small for, each with the quality that would be enough: "Shopify wants 2048 px: choose Pro (2K)."
   */
  recipeAdvice: string[];
}

/**
 * How the service will fetch a batch's photos: `urls` every photo is already a public URL (a catalog);
 * `this-computer` Adbatch serves them itself (the sandbox, or a service on this machine); `storage` they are
 * uploaded to the bucket set up in Settings; `missing` they are on this computer, the service is remote and
 * no storage is set up, so the batch cannot start.
 */
export type PhotoReach =
  | { kind: 'urls' }
  | { kind: 'this-computer' }
  | { kind: 'storage'; bucket: string }
  | { kind: 'missing' };

export interface NewBatchRequest extends QuoteRequest {
  name: string;
}

/** A cap the batch would run under, and what the quote would do to it. */
export interface CapPreview {
  scope: 'brand' | 'batch';
  /** "Acme Outdoor's November budget of 2,000 credits", "This batch's cap of 300 credits". */
  label: string;
  cap: number;
  /** Spent, at stake or being sent already (this month for a brand). */
  committed: number;
  /** What is left before this batch: cap - committed, never below 0. */
  left: number;
  /** The batch's quote would pass it: the batch does not start. */
  passes: boolean;
  /** The batch would take it past 80 %. */
  warns: boolean;
}

export interface BatchSummary extends BatchProgress {
  accountName: string;
  /** Whether this process holds the batch's key; a batch whose key is gone waits for it. */
  keyHeld: boolean;
  /** The last characters of the batch's key (`…a1b2`), to say which key it needs. */
  keyHint: string;
  sandbox: boolean;
  createdAt: number;
  products: number;
  quotedCredits: number;
  /** The client brand it is billed to; null for personal keys, the Sandbox, or none chosen. */
  brandName: string | null;
  creditCap: number | null;
  /** The agent whose request made it, approved by a person or within the allowance; null: a person's. */
  agentClient: string | null;
}

export interface JobView {
  id: string;
  kind: JobKind;
  state: JobState;
  /** The service's own status word for it, as it last answered (an open set: the service may add words). */
  remoteStatus: string | null;
  /**
   * Running past its deadline, "taking longer than usual": still polled, given up only hours later
   * (core/scheduler/poll-planner.ts); false in every other state.
   */
  late: boolean;
  /** What sending it costs: a retry spends it again. */
  price: number;
  creditsCharged: number;
  creditsRefunded: number;
  /**
   * Credits the service may already have charged for it though Adbatch never heard: a create whose outcome is
   * unknown holds its price at stake in the ledger until the service's usage report resolves it; 0 otherwise.
   */
  creditsAtStake: number;
  /** What the user may decide about it now, as core allows it (core/queue/decisions.ts); [] when nothing. */
  decisions: JobDecision[];
  /**
   * A later job of its product and kind made good (`JobStore.supersededIn`): an earlier attempt, which the
   * batch page folds under the one that succeeded.
   */
  superseded: boolean;
  /** The aspect ratio its results were asked in ("4:5"); null where the service chooses (a video's default). */
  aspectRatio: string | null;
  /** The service's failure code, or Adbatch's (`stale`, `results_missing`): an open set; the message says it. */
  failureCode: string | null;
  failureMessage: string | null;
  /** Result thumbnails (images) and the video, as they land; `resultId` is the result Review shows (a
   * thumbnail's image), null where none is known. A video's `posterUrl` is its poster frame (320 px, as
   * Review's grid shows it), null for the others and while it is being made or when it cannot be. */
  results: Array<{
    kind: 'image' | 'thumbnail' | 'video';
    url: string;
    resultId: number | null;
    posterUrl: string | null;
  }>;
}

export interface ProductProgressView {
  id: string;
  name: string;
  heroUrl: string | null;
  jobs: JobView[];
}

/** A batch as the batch list shows it: with its cover, the first shot's thumbnail (null before one lands). */
export interface BatchListItem extends BatchSummary {
  coverUrl: string | null;
}

export interface BatchDetail extends BatchSummary {
  /** The batch's folder in the library: its results and manifest.json. */
  resultsFolder: string;
  /** That folder is not there (renamed, moved, deleted, its drive unplugged): results saved in it are lost to
   * Adbatch until it is found again, or downloaded again. */
  resultsFolderMissing: boolean;
  shoot: ShootSettingsView;
  video: VideoSettingsView | null;
  /** Videos made after review from the picks: the settings chosen in New batch, and whether any video was
   * made yet; null for a batch whose video is made at once, or that has none. */
  videosAfterReview: { video: VideoSettingsView; made: boolean } | null;
  /**
   * The settings of the videos last made from this batch's picks, logo and note as typed: where Make videos
   * starts from next, so that a failure (a logo the service could not fetch) never loses them. null: none yet.
   */
  lastPickedVideo: PickedVideosRequest['video'] | null;
  /** What the user may decide about the batch now, as core allows it (core/queue/decisions.ts). */
  decisions: BatchDecision[];
  items: ProductProgressView[];
}

export interface UploadProgress {
  /** Photos made reachable so far (uploaded, or found already in the bucket). */
  done: number;
  total: number;
  bytesSent: number;
}

/**
 * When a running batch should be done (core/queue/eta.ts), as moments (ms since the epoch), not spans: a
 * front end counts down with its own clock between answers (shared/words.ts `etaWords` says it).
 */
export interface BatchEta {
  /** The likeliest moment the batch is done. */
  at: number;
  /** The early and late ends of its likely range. */
  from: number;
  to: number;
  /** Little is known yet (few durations learned, or a wide spread): said as a range, "1 to 3 min". */
  range: boolean;
  /** When a job of the batch last finished, or when it began. */
  lastProgressAt: number;
  /** From this moment on with nothing finished, the batch is waiting on the service; null when nothing runs. */
  stalledAt: number | null;
}

export interface BatchProgress {
  id: string;
  name: string;
  /** As shown: `needs_you` for a finished batch with a job in doubt (`BATCH_VIEW_STATUSES` says why). */
  status: BatchViewStatus;
  /** Why it is paused; null unless it is. */
  statusReason: PauseReason | null;
  /** The reason in words where the code is not enough (a storage failure names the bucket and cause). */
  statusMessage: string | null;
  /** While the batch's photos are being uploaded to storage, before its jobs are sent. */
  upload: UploadProgress | null;
  jobs: number;
  /** Jobs that make a video; the others make shoots (what the counts call them: `countedJobs`). */
  videos: number;
  done: number;
  failed: number;
  attention: number;
  /** Jobs by state, every state with at least one job. */
  states: Partial<Record<JobState, number>>;
  /**
   * Of the `stale` jobs, those the service answered about without their results (404, or completed with
   * none: vocabulary.ts `ODD_ANSWERS`), not those past their deadline.
   */
  staleOnAnswers: number;
  /** Jobs the service accepted (a remote id recorded), whatever became of them since. */
  created: number;
  /** Jobs sent and not yet ended: being created, followed or downloaded. */
  inFlight: number;
  creditsSpent: number;
  creditsRefunded: number;
  /** Credits that outcome-unknown jobs may have cost. */
  creditsAtStake: number;
  /**
   * Credits at stake in the jobs in doubt (`attention` of them): what outcome-unknown jobs may have cost, and
   * what stale and owed jobs were charged for results not on disk yet.
   */
  creditsInDoubt: number;
  /** When it should be done, while it runs; null when paused, over, or nothing is left to run. */
  eta: BatchEta | null;
  /**
   * While it runs, its service has not answered for a while, as the process driving the queue saw it
   * (core/scheduler/service-trouble.ts): said instead of the time left (`timeLeftWords`). Null when the
   * service answers.
   */
  serviceTrouble: ServiceTrouble | null;
}

/** Every request of a batch's key has failed since `since` (ms since the epoch). */
export interface ServiceTrouble {
  since: number;
  /** `no_answer`: no answer came (refused, unreachable, reset, timed out); `errors`: 5xx or unreadable answers. */
  kind: 'no_answer' | 'errors';
  /** Why, in words: "the connection was refused", "HTTP 503", "answers that cannot be read". */
  reason: string;
}

export interface Settings {
  libraryDir: string;
  /** Share of the service's rate limit kept free for other apps using the same key, in percent. */
  budgetMarginPercent: number;
  /** What the last batch started with; set by `batches:create`, read through `batches:lastSettings`. */
  lastBatch?: LastBatchSettings;
  /**
   * Hosts Adbatch may fetch input from though they are on this computer or the office network (a catalog's
   * photos served from the LAN): `host` or `host:port` (core/net/outbound-policy.ts).
   */
  allowedHosts?: string[];
  /** The MCP server inside the app (issue 16): on or off, the port clients were given, and its token. */
  agentServer?: { enabled: boolean; port: number; token: string; exportFolder?: string };
  /** CSV files written with UTF-8's byte-order mark, which Excel needs to read them (core/util/csv.ts). */
  csvBom?: boolean;
}

/** The settings the last batch started with: the next New batch starts from them (issue 14, point 10). */
export interface LastBatchSettings {
  accountId: string;
  shoot: ShootSettingsView;
  video: VideoSettingsView | null;
  /** When its video was made: at once, after review, or null for none. */
  videoWhen: 'at_once' | 'after_review' | null;
}

/**
 * The S3-compatible storage (AWS S3, Cloudflare R2, Backblaze B2, MinIO…) that photos on this computer are
 * uploaded to, so that a remote service can fetch them. The secret access key never leaves main: only its
 * last characters are shown.
 */
export interface PhotoStorageView {
  bucket: string;
  /** The S3 API address; null for AWS S3 itself. */
  endpoint: string | null;
  /** null: taken from the endpoint (R2, B2) or the AWS configuration. */
  region: string | null;
  prefix: string;
  /** Where the bucket is publicly readable; null: presigned links. */
  publicBaseUrl: string | null;
  /** How long a presigned link stays valid. */
  urlTtlHours: number;
  /** null: credentials come from the AWS environment or profile. */
  accessKeyId: string | null;
  secretHint: string | null;
  checkedAt: number;
}

/** What Settings sends; an absent secret with the saved access key ID keeps the saved secret. */
export interface PhotoStorageInput {
  bucket: string;
  endpoint?: string;
  region?: string;
  prefix?: string;
  publicBaseUrl?: string;
  urlTtlHours?: number;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** One result to review: a shot or a video, downloaded and verified. */
export interface ReviewItemView {
  /** The result's id: what a decision names. */
  id: number;
  productId: string;
  productName: string;
  /** The product's place in its batch, from 0. */
  position: number;
  kind: ResultKind;
  /** The shoot's style; a video's is its shoot's; null where that shoot is not known. */
  style: ShootStyle | null;
  /** 1 for the first shot of its shoot. */
  index: number;
  /** The file itself, through the file gateway. */
  url: string;
  /** Where it is in the batch's results folder (`001 hat/shot-1.jpg`), for people to read. */
  file: string;
  /** Its thumbnail, when the service made one. */
  thumbnailUrl: string | null;
  /** The product's hero photo, as it was sent (converted copy or catalog URL): what an A/B wipe compares. */
  sourceUrl: string | null;
  /**
   * What a grid cell shows: a shot's 320 px preview, made locally (the original's `url` while it is being
   * made again); a video's poster frame at that size (its thumbnail from the service, or null, while the
   * frame is being made or when it cannot be: the grid then says "Video" and its duration).
   */
  gridUrl: string | null;
  /**
   * What the loupe and compare show: a shot's 1600 px preview (the original's `url` while it is being made
   * again); null for a video, which plays from `url`.
   */
  screenUrl: string | null;
  /** When it was made (its job finished), in ms since 1970: what Review's sort by time orders by. */
  madeAt: number;
  /** A video's poster frame at the loupe's size, shown before it plays; null for a shot or without one. */
  posterUrl: string | null;
  /** A video's length in seconds as it was ordered; null for a shot. */
  durationSeconds: number | null;
  flag: ReviewFlag | null;
  stars: number;
  rejectReason: RejectReason | null;
  /** Its colour label (keys 6 to 9), null without one. */
  label: ReviewLabel | null;
  /** A flag or a star was given. */
  reviewed: boolean;
  /**
   * Where the designer put the subject (fractions of the width and height from the top left), which an
   * export's crops centre on; null: none set, crops find the subject themselves.
   */
  focus: { x: number; y: number } | null;
  /** In one product's view across batches: the batch this result came from (absent in a batch's view). */
  batch?: ReviewBatchRef;
}

/**
 * Whose results Review shows: one batch's, or one product's in every batch that shot it. A product is named
 * by one of its products' ids (the app), a product key as `ReviewProductView.key` answers it, an absolute
 * folder, or a SKU or catalog handle (the CLI).
 */
export type ReviewScope = { batchId: string; product?: never } | { product: string; batchId?: never };

export interface ReviewBatchRef {
  id: string;
  name: string;
  createdAt: number;
}

/** One product across batches, as Review shows it above its results. */
export interface ReviewProductView {
  /** What makes it the same product in every batch: `folder:<absolute path>` or `handle:<SKU>`. */
  key: string;
  /** The folder, or `SKU hat-01`, for people to read. */
  label: string;
  /** Its name in the newest batch that shot it. */
  name: string;
  /** Its source photos as they were sent, the newest batch's first, each once. */
  sourceUrls: string[];
  /** The batches that shot it, newest first. */
  batches: ReviewBatchRef[];
}

/** Filters combine with AND; an absent one does not filter. */
export interface ReviewFilter {
  flag?: ReviewFlag | 'none';
  /** At least this many stars. */
  minStars?: number;
  reviewed?: boolean;
  kind?: ResultKind;
  style?: ShootStyle;
  /** Part of the product's name, any case. */
  product?: string;
  label?: ReviewLabel | 'none';
}

/** Counts over the whole batch, whatever the filter: what each filter would show. */
export interface ReviewCounts {
  total: number;
  reviewed: number;
  picked: number;
  rejected: number;
  unflagged: number;
  shots: number;
  videos: number;
  /** `atLeastStars[n]`: results with at least n stars (n from 0 to 5). */
  atLeastStars: number[];
  byStyle: Partial<Record<ShootStyle, number>>;
  /** Results with each colour label. */
  byLabel: Partial<Record<ReviewLabel, number>>;
}

export interface ReviewView {
  /** The batch reviewed; null in one product's view across batches. */
  batchId: string | null;
  /** The client brand the batch is billed to; null when none, and in a product's view across batches. */
  brandName: string | null;
  /** The product reviewed across batches; absent in a batch's view. */
  product?: ReviewProductView;
  /**
   * The items the filter keeps, in product order, shots before the video; in a product's view, newest batch
   * first.
   */
  items: ReviewItemView[];
  counts: ReviewCounts;
  /** Whether there is a decision to undo or redo in this session. */
  canUndo: boolean;
  canRedo: boolean;
  /** How many results the filter keeps in all: `items` is a page of them when a page was asked for. */
  matching: number;
}

/**
 * A part of the results the filter keeps, in their order: the Review view asks for the first screenful, shows
 * it, then asks for the rest page by page, so a batch of 8,000 results opens as fast as one of 80. A page
 * ends with a product's last result: it may hold a few more than `limit`.
 */
export interface ReviewPage {
  offset: number;
  limit: number;
}

/** Videos made from a batch's picks: their settings, and per product the picks in the order to use. */
export interface PickedVideosRequest {
  batchId: string;
  video: VideoSettingsView & {
    logoUrl?: string;
    /** A logo file on this computer (an absolute path; not with `logoUrl`), served like the photos. */
    logoFile?: string;
    music?: boolean;
    note?: string;
  };
  /** Per product id, its picked shots in the order to use; absent: its picks in shot order. */
  order?: Record<string, number[]>;
}

export interface PickedVideoQuote {
  products: Array<{
    productId: string;
    productName: string;
    /** Its picked shots, in the order given. */
    picks: number[];
    /** Those the video is made from: as many as its length takes (5 s 1, 10 s 3, 15 s 4). */
    used: number[];
    /** 0 for a product without picks: it gets no video. */
    credits: number;
  }>;
  /** How one video's price adds up (every product's video has the same settings). */
  price: PriceBreakdown;
  credits: number;
  balance: number;
  shortfall: number;
}

/** What a decision sets; what it leaves out stays as it was. */
export interface ReviewChange {
  flag?: ReviewFlag | null;
  stars?: number;
  rejectReason?: RejectReason | null;
  label?: ReviewLabel | null;
}

/** The items a decision, an undo or a redo changed, as they are now. */
export interface ReviewDecided {
  items: ReviewItemView[];
  canUndo: boolean;
  canRedo: boolean;
}

/** Products shot again with other settings (issue 12, point 7): by default those whose shots are all rejected. */
export interface ReshootRequest {
  batchId: string;
  /** The products to shoot again; absent: every product whose shots are all rejected. */
  productIds?: string[];
  shoot: ShootSettingsView;
}

export interface ReshootQuote {
  /** The account whose key the batch runs with: a model is chosen among its models. */
  accountId: string;
  products: Array<{
    productId: string;
    productName: string;
    /** Its shots so far, every one rejected. */
    rejected: number;
    /** The shots the new shoot makes (a 6 clamped to 4 outside classic and minimal). */
    shots: number;
    clamped: boolean;
    credits: number;
  }>;
  /**
   * Products whose shots are all rejected and that are being shot again already (a reshoot on its way):
   * not quoted again; their new shots join Review as they land.
   */
  underway: Array<{ productId: string; productName: string }>;
  /** What each new shoot costs, as its lines add up (shared/money-words.ts says it). */
  price: PriceBreakdown;
  credits: number;
  balance: number;
  shortfall: number;
}

// Export (issue 13): the results the designer picked, out as the files each channel wants.

export interface ExportRecipesView {
  /** The built-ins, then the designer's own. */
  recipes: Array<Recipe & { builtIn: boolean }>;
  /** Saved entries that no longer read as recipes, with why (kept in the file, never dropped). */
  unreadable: Array<{ reason: string }>;
}

/**
 * Whose results an export takes: batches (the CLI's `--all` names every one), one product across the batches
 * that shot it (as Review names it), or a selection of Review's result ids (with a batch or a product).
 */
export interface ExportScope {
  /** One or more batches; exactly one of `batchIds` and `product`. */
  batchIds?: string[];
  /** One product in every batch that shot it: an id, a key, a folder, a SKU or handle (as Review's scope). */
  product?: string;
  /** Only these results of the batch (a single one) or the product: Review's selection. */
  resultIds?: number[];
}

export interface ExportSelection {
  /** `picked`: picks only (the default); `picked-or-stars`: picks and results with at least `minStars`. */
  rule: 'picked' | 'picked-or-stars' | 'not-rejected';
  minStars: number;
  videos: boolean;
  /** The product photos the results were made from. */
  sources: boolean;
}

export interface ExportRequest {
  scope: ExportScope;
  /** Recipes by id or name (any case), built-in or the designer's, in the order they run. */
  recipes: string[];
  selection?: Partial<ExportSelection>;
  /** Replaces every recipe's file-name template, and its folder template (names.ts tokens). */
  fileTemplate?: string;
  folderTemplate?: string;
  /** The export folder, absolute. */
  destination: string;
  /** Zips of the files beside them, one per product or one per recipe. */
  zip?: 'per-product' | 'per-recipe' | null;
  /** `bom`: the CSV manifest starts with UTF-8's byte-order mark, for Excel; absent, the preference's. */
  manifest?: { csv: boolean; json: boolean; bom?: boolean };
  /** The pre-flight warnings written anyway, per kind: other warned files are held back with the reason. */
  acceptWarnings?: PreflightWarning[];
  /** The front end starting it: its recipes and folder become that front end's last for the scope's brand. */
  rememberAs?: ExportFront;
}

/** What a front end last exported for a client brand (none: batches billed to no brand), per front end. */
export interface ExportLastChoiceView {
  /** The client brand's name; null for batches billed to no brand (or to several). */
  brand: string | null;
  /** Recipe ids, in the order they ran. */
  recipes: string[];
  destination: string;
  chosenAt: number;
}

export interface ExportPlanView {
  total: number;
  /** The first planned files, in plan order (relative paths, `/` between folders). */
  files: Array<{
    path: string;
    recipe: string;
    product: string;
    width: number;
    height: number;
    /** What the plan can tell before writing, that an export may accept (per kind: `acceptWarnings`). */
    warnings: string[];
    /** What holds the file back, whatever is accepted: a size under the channel's minimum, a path too long. */
    errors: string[];
    /** A file of another export (or anyone's) is already under this name: ours goes beside it, or is skipped when identical. */
    exists: boolean;
  }>;
  /** Files whose planned name is taken on disk (of all, not only those listed). */
  collisions: number;
  /** Files the plan can already warn about (of all). */
  warned: number;
  /**
   * The pre-flight up front, of all files: each kind found, how many files it concerns, one of its messages,
   * and whether the request accepts it (a warning) or it blocks its files whatever is accepted (an error).
   */
  preflight: PreflightSummaryView[];
  /** Files the pre-flight holds back as the request stands: with an error, or a warning not accepted. */
  blocked: number;
  /** Empty tokens and the like, once per product and recipe. */
  notices: string[];
  /**
   * What stops the export before anything is written, in words: a recipe whose names need a field some
   * products lack (`{sku}` for Amazon), naming them. Their files are not in the plan; export:start refuses.
   */
  blocking: string[];
  /** The zips it will write, relative to the destination. */
  zips: string[];
  /**
   * What the scope holds that this export leaves out, and why, in words ("11 videos not picked are not
   * exported"): the same sentences in the app, the CLI and MCP (core/export/selection.ts).
   */
  leftOut: string[];
}

/** A pre-flight error kind (it blocks its files), or a warning kind (it blocks them unless accepted). */
export type PreflightSummaryView =
  | (PreflightKindView & { severity: 'error'; kind: PreflightError })
  | (PreflightKindView & { severity: 'warning'; kind: PreflightWarning });

interface PreflightKindView {
  /** Its words (shared/words.ts PREFLIGHT_WORDS). */
  words: string;
  files: number;
  /** One file's message, as an example. */
  example: string;
  /** A warning the request writes anyway; false for an error. */
  accepted: boolean;
}

/** What an export wrote: files written, files already there with the same bytes, files it could not write. */
export interface ExportTally {
  written: number;
  identical: number;
  failed: number;
}

/** How far an export's files are: the engine's progress (core/export/run.ts) and the view's share it. */
export interface ExportCounts extends ExportTally {
  done: number;
  total: number;
  /** Bytes this run wrote. */
  bytesWritten: number;
  /** null until a first file is done. */
  etaMs: number | null;
  /** The file just finished. */
  path: string;
  /** A file that takes long to make (a video's transcode) as it is made: its path, how far, 0 to 1. */
  making?: { path: string; fraction: number };
}

export interface ExportProgressView extends ExportCounts {
  id: string;
  phase: 'files' | 'zips';
}

/** A file of an export: written now, found identical under its name, or failed. */
export type ExportFileStatus = 'written' | 'identical' | 'failed';

export interface ExportFileView {
  path: string;
  recipe: string;
  product: string;
  status: ExportFileStatus;
  bytes: number;
  sha256: string;
  warnings: string[];
  error?: string;
}

export interface ExportView extends ExportTally {
  id: string;
  state: ExportState;
  destination: string;
  createdAt: number;
  finishedAt: number | null;
  recipes: string[];
  total: number;
  progress: ExportProgressView | null;
  /** Why it stopped, failed or was interrupted, and what to do. */
  message: string | null;
  /** Relative to the destination (the manifests, and Shopify's import file). */
  manifests: string[];
  zips: string[];
  /** What a finished export says besides its files: where Shopify's import file takes its addresses from. */
  notes: string[];
  /** An interrupted export can be run again: same files, same names; what was finished is not written twice. */
  resumable: boolean;
}

export interface ExportDetail extends ExportView {
  /** Every file of a finished run, with its warnings (the first 2,000). */
  files: ExportFileView[];
}

/** A client brand of an agency, as this computer knows it: listed by the service, with its cap kept here. */
export interface BrandView {
  id: string;
  /** The service's id of the brand. */
  remoteId: string;
  name: string;
  agencyName: string | null;
  baseUrl: string;
  active: boolean;
  /** The most its batches may spend in a calendar month (UTC), in credits; null: no cap. */
  monthlyCap: number | null;
  /** This month: spent (net of refunds) plus at stake and being sent, from the ledger. */
  committedThisMonth: number;
  /** The stored keys the user pinned to it. */
  accountIds: string[];
}

export interface NewBrand {
  /** The agency account whose key creates it (an unpinned key: the service refuses a pinned one). */
  accountId: string;
  name: string;
}

/** A period of usage: [from, to) in epoch ms. */
export interface UsagePeriod {
  from: number;
  to: number;
}

/** Who a line of usage is billed to: a client brand, an agency's spend on no brand, or a personal account. */
export type UsageOwner =
  | { kind: 'brand'; brandId: string; name: string; agencyName: string | null }
  | { kind: 'unassigned'; agencyName: string | null; baseUrl: string }
  | { kind: 'account'; accountId: string; name: string };

/** What the ledger holds for one owner in a period. */
export interface UsageLine {
  owner: UsageOwner;
  /** Result images of the shoots charged in the period that completed; videos likewise. */
  images: number;
  videos: number;
  charged: number;
  refunded: number;
  /** At stake: creates whose outcome is unknown, not resolved yet. */
  pending: number;
  /** charged - refunded. */
  net: number;
  /** Brands: the monthly cap (for a one-month period) and what is left of it; null otherwise. */
  cap: number | null;
  left: number | null;
}

export interface UsageDay {
  /** The day's start, UTC, epoch ms. */
  day: number;
  /** Net credits per line, in the order of `UsageView.lines`. */
  net: number[];
  /** Credits charged per line that day, in the same order: what the chart stacks above its axis. */
  charged: number[];
  /** Credits refunded that day (the refund's own day, not its charge's), all lines together. */
  refunded: number;
}

/** An account's pool or balance, and how long it lasts at the last 7 days' rate of this computer's spend. */
export interface RunwayView {
  accountId: string;
  name: string;
  balance: number | null;
  /** Credits a day over the last 7 days (net, from the ledger of every key of the same account or agency). */
  dailyRate: number;
  /** Days left at that rate; null when nothing was spent in 7 days. */
  days: number | null;
  /** Fewer than 7 days left. */
  low: boolean;
}

export interface UsageView {
  period: UsagePeriod;
  lines: UsageLine[];
  days: UsageDay[];
  totals: { images: number; videos: number; charged: number; refunded: number; pending: number; net: number };
  runways: RunwayView[];
}

/** How one owner's figures compare with the service's usage report. */
export type ReconciliationVerdict =
  /** The same credits on both sides. */
  | 'matched'
  /** The service counts more: spent outside Adbatch (its own app shares the credits), or with another key. */
  | 'outside_adbatch'
  /** Adbatch counts more: a refund not reflected there yet, or spend the service attributed elsewhere. */
  | 'not_at_service'
  /** The owner's figures could not be read from the service (no key for it, the request failed). */
  | 'unavailable';

export interface ReconciliationLine {
  owner: UsageOwner;
  ledger: { images: number; videos: number; credits: number };
  service: { images: number; videos: number; credits: number } | null;
  /** service - ledger credits; 0 when matched; null when unavailable. */
  difference: number | null;
  verdict: ReconciliationVerdict;
  /** The difference in words, naming the amount and, where known, the reason. */
  explanation: string;
  /** Jobs behind a `not_at_service` difference (refunded here, or sent with a key not pinned to the brand). */
  jobs: Array<{
    jobId: string;
    batchName: string;
    product: string;
    kind: JobKind;
    credits: number;
  }>;
}

export interface ReconciliationView {
  period: UsagePeriod;
  checkedAt: number;
  lines: ReconciliationLine[];
  /** Creates whose outcome was unknown, resolved by this check (charged after all, or not). */
  resolved: Array<{ jobId: string; credits: number; charged: boolean }>;
}

/** One row of a client statement: one job's charge and refund in the period. */
export interface StatementRow {
  date: string;
  batch: string;
  product: string;
  kind: JobKind;
  settings: string;
  charged: number;
  refunded: number;
  jobId: string;
}

export interface StatementView {
  owner: UsageOwner;
  period: UsagePeriod;
  rows: StatementRow[];
  totals: { charged: number; refunded: number; net: number };
  /** The same rows as CSV text (RFC 4180), and a file name for it. */
  csv: string;
  fileName: string;
}

/** An agent's quote of videos from a batch's picks: Make videos' quote, kept by id for `agents:submit`. */
export interface AgentVideoQuoteView extends PickedVideoQuote {
  quoteId: string;
  expiresAt: number;
}

/** An agent's quote (issue 16): the batch's cost as New batch shows it, kept by id for `agents:submit`. */
export interface AgentQuoteView extends QuoteView {
  quoteId: string;
  /** After this, submitting it is refused: quote again. */
  expiresAt: number;
}

export interface AgentRequestView {
  id: string;
  /** A new batch, or videos added to a batch from its picks. */
  kind: 'batch' | 'videos';
  /** The MCP client's name, as it gave it ("Claude Desktop"). */
  client: string;
  clientRequestId: string;
  createdAt: number;
  /** The batch's name. */
  name: string;
  accountName: string;
  brandName: string | null;
  products: number;
  /** The shoot (and video) settings in words. */
  settings: string;
  credits: number;
  /** The balance it was quoted against. */
  balance: number | null;
  state: AgentRequestState;
  decidedAt: number | null;
  /** "the allowance", "Adbatch", "adbatch approve". */
  decidedBy: string | null;
  /** Why it was declined or expired, in words. */
  reason: string | null;
  batchId: string | null;
}

/** What agents may spend without asking, in credits a UTC day; null: nothing (every request waits). */
export interface AgentAllowanceView {
  perDay: number | null;
  perBrand: Array<{ brandId: string; brandName: string; credits: number }>;
  /** Credits of the batches agents' requests made today, asked or not. */
  usedToday: number;
}

/** The app's MCP server for agents, as Settings shows it. */
export interface AgentServerView {
  /** This front end can serve agents over HTTP (the app; not the command line, which has `adbatch mcp`). */
  available: boolean;
  enabled: boolean;
  /** http://127.0.0.1:<port>/mcp while it runs. */
  url: string | null;
  /** The bearer token a client sends; shown so the user can copy it into the client's settings. */
  token: string | null;
  /** Why it is not running though turned on (the port taken…), in words. */
  error: string | null;
  /** The folder agents may export into (and folders inside it). */
  exportFolder: string;
}

/** What a product is called where it is sold (issue 29): '' where a field is not known. */
export type ProductIdentity = Record<IdentityField, string>;

/** One product of a batch's product sheet. */
export interface ProductSheetRow {
  id: string;
  /** Its name in Adbatch: its folder's, its SKU's in a folder split by SKU, or the catalog's title. */
  name: string;
  /** What was read or typed; '' where nothing was. */
  identity: ProductIdentity;
  /**
   * What export names and manifests use: the identity, where a field is empty the guess (a handle made
   * from the title, the title from the name, the batch's brand); '' where there is none (a SKU).
   */
  used: ProductIdentity;
}

export interface ProductSheetView {
  batchId: string;
  batchName: string;
  rows: ProductSheetRow[];
}
