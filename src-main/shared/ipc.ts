import type { Recipe, RecipeInput } from './export-recipe.ts';
import type {
  AccountView,
  AgentAllowanceView,
  AgentQuoteView,
  AgentRequestView,
  AgentServerView,
  AgentVideoQuoteView,
  AppInfo,
  BatchDetail,
  BatchListItem,
  BatchProgress,
  BatchSummary,
  BrandView,
  CatalogView,
  ExportDetail,
  ExportPlanView,
  ExportProgressView,
  ExportRecipesView,
  ExportRequest,
  ExportScope,
  ExportView,
  JobView,
  LastBatchSettings,
  ModelView,
  NewAccount,
  NewBatchRequest,
  NewBrand,
  PhotoStorageInput,
  PhotoStorageView,
  PickedVideoQuote,
  PickedVideosRequest,
  QueueOwnerView,
  QuoteRequest,
  QuoteView,
  ReconciliationView,
  ReshootQuote,
  ReshootRequest,
  ReviewChange,
  ReviewDecided,
  ReviewFilter,
  ReviewPage,
  ReviewScope,
  ReviewView,
  ScannedProductView,
  ScanView,
  Settings,
  StatementView,
  UsageOwner,
  UsagePeriod,
  UsageView,
} from './models.ts';
import type { AgentRequestState, ExportState } from './vocabulary.ts';

// The one contract between the renderer and main, whatever carries it (Electron IPC, the browser harness's
// WebSocket, a direct call in tests). Channels are `domain:verb`. Main validates every argument against
// its zod schema (core/app/schemas.ts) before a handler sees it.

export interface Handlers {
  'app:info': { args: undefined; result: AppInfo };
  /** The styles, qualities, lengths and resolutions a batch can be made of, and where a new one starts. */
  'catalog:get': { args: undefined; result: CatalogView };
  'accounts:list': { args: undefined; result: AccountView[] };
  'accounts:add': { args: NewAccount; result: AccountView };
  'accounts:remove': { args: { id: string }; result: null };
  'accounts:refresh': { args: { id: string }; result: AccountView };
  'models:list': { args: { accountId: string }; result: ModelView[] };
  /** Says which client brand an agency key is pinned to (null: not pinned); the service does not say. */
  'accounts:pin': { args: { id: string; brandId: string | null }; result: AccountView };
  /** The client brands known here, every agency's, with their caps and what this month committed. */
  'brands:list': { args: undefined; result: BrandView[] };
  /** Lists the brands the account's key sees at the service (a pinned key sees its own only) and keeps them. */
  'brands:refresh': { args: { accountId: string }; result: BrandView[] };
  /** Creates a client brand at the service; the plan's quota refusal comes back in words. */
  'brands:create': { args: NewBrand; result: BrandView };
  /** Sets or clears a brand's monthly cap, in credits. */
  'brands:setCap': { args: { id: string; monthlyCap: number | null }; result: BrandView };
  /** The ledger's usage in a period: per brand (or account), per day, and each pool's runway. */
  'usage:get': { args: UsagePeriod; result: UsageView };
  /** The service's usage report for the period beside the ledger's, every difference named. */
  'usage:reconcile': { args: UsagePeriod; result: ReconciliationView };
  /** A client statement: one row per job of the owner in the period, and its CSV. */
  'usage:statement': { args: UsagePeriod & { owner: UsageOwner }; result: StatementView };
  /** Saves the window, showing a statement, as a PDF where the user chooses (the app only). */
  'usage:printStatement': { args: { fileName: string }; result: { path: string } | null };
  /** An agent's quote: kept by id in this process for `agents:submit`; `client` is the agent's name. */
  'agents:quote': { args: { client: string; request: NewBatchRequest }; result: AgentQuoteView };
  /** An agent's quote of videos from a batch's picks (what Make videos would add), kept for `agents:submit`. */
  'agents:quoteVideos': {
    args: { client: string; request: PickedVideosRequest };
    result: AgentVideoQuoteView;
  };
  /**
   * An agent's request to run a quoted batch (or videos): created at once when the allowance covers it, else pending a
   * person's yes. The same client request id twice answers the first request: never a second batch.
   */
  'agents:submit': {
    args: { client: string; quoteId: string; clientRequestId: string };
    result: AgentRequestView;
  };
  /** Agents' requests, newest first. */
  'agents:requests': { args: undefined; result: AgentRequestView[] };
  /** One request, as an agent follows it. */
  'agents:request': { args: { id: string }; result: AgentRequestView };
  /** A person's yes: the batch is made, unless the balance or the prices changed since the quote. */
  'agents:approve': { args: { id: string; by?: string }; result: AgentRequestView };
  /** A person's no. */
  'agents:decline': { args: { id: string; by?: string; reason?: string }; result: AgentRequestView };
  'agents:allowance': { args: undefined; result: AgentAllowanceView };
  /** The app's MCP server over HTTP on this computer: on or off, its address and token. */
  'agents:server': { args: undefined; result: AgentServerView };
  /** Turns the app's MCP server on or off; `newToken` replaces the token (clients must be given the new one). */
  'agents:setServer': {
    args: { enabled: boolean; newToken?: boolean; exportFolder?: string };
    result: AgentServerView;
  };
  /** Sets what agents may spend a UTC day without asking: in all, or for one brand; null removes it. */
  'agents:setAllowance': {
    args: { brandId: string | null; credits: number | null };
    result: AgentAllowanceView;
  };
  /** The OS dialog to choose folders, photos or catalogs; [] when cancelled. */
  'dialog:open': { args: undefined; result: string[] };
  /** Shows the library (or a batch's folder) in Finder / Explorer / the file manager. */
  /** The folder shown, and why the file manager could not show it (null when it did). */
  'library:reveal': { args: { batchId?: string }; result: { folder: string; failure: string | null } };
  /** `subfolders`: a folder of photos inside another, a product of its own (default) or part of the one above. */
  'ingest:scan': {
    args: { inputs: string[]; pattern?: string; subfolders?: 'own' | 'parent' };
    result: ScanView;
  };
  /** Makes another of a scanned product's photos its hero (sent first); the others keep their order. */
  'ingest:hero': {
    args: { scanId: string; product: string; photo: number };
    result: ScannedProductView;
  };
  /** Leaves a scanned product out of the batch, or takes it back in: for this scan and the next ones. */
  'ingest:leaveOut': { args: { scanId: string; product: string; out: boolean }; result: null };
  'batches:quote': { args: QuoteRequest; result: QuoteView };
  'batches:create': { args: NewBatchRequest; result: BatchSummary };
  'batches:list': { args: undefined; result: BatchListItem[] };
  /** What the last batch started with, if it still holds (New batch starts from it); null: the defaults. */
  'batches:lastSettings': { args: undefined; result: LastBatchSettings | null };
  'batches:get': { args: { id: string }; result: BatchDetail };
  'batches:pause': { args: { id: string }; result: BatchSummary };
  'batches:resume': { args: { id: string }; result: BatchSummary };
  'batches:cancel': { args: { id: string }; result: BatchSummary };
  /**
   * The batch's library found again where the user points (the library, or the batch's folder in it),
   * refused unless every result it saved is there; a batch paused for its library goes on.
   */
  'batches:relocate': { args: { id: string; libraryDir: string }; result: BatchSummary };
  /** Downloads again every result the batch owes (paid for, not on disk): no POST, no credits. */
  'batches:redownload': { args: { id: string }; result: BatchSummary };
  /** A job and the batch it belongs to, for a decision on it (the job says which it allows). */
  'jobs:get': { args: { id: string }; result: { batchId: string; job: JobView } };
  'jobs:retry': { args: { id: string }; result: BatchSummary };
  'jobs:abandon': { args: { id: string }; result: BatchSummary };
  'jobs:recheck': { args: { id: string }; result: BatchSummary };
  /** Downloads an owed job's results again: no POST, no credits. */
  'jobs:redownload': { args: { id: string }; result: BatchSummary };
  /**
   * A batch's results to review (or one product's across batches), the filter's, with counts over the
   * whole batch (or product); a page of them when asked.
   */
  'review:get': { args: ReviewScope & { filter?: ReviewFilter; page?: ReviewPage }; result: ReviewView };
  /** A decision on one result or a selection, committed at once. */
  'review:decide': {
    args: ReviewScope & { resultIds: number[]; change: ReviewChange };
    result: ReviewDecided;
  };
  /** Picks this result and rejects the others of its product (shots, or videos) in the scope. */
  'review:keep': { args: ReviewScope & { resultId: number }; result: ReviewDecided };
  /** Undoes the scope's last decision of this session; nothing changed when there is none. */
  'review:undo': { args: ReviewScope; result: ReviewDecided };
  'review:redo': { args: ReviewScope; result: ReviewDecided };
  /** What videos from the picks would cost, per product and in all, against the balance; nothing is spent. */
  'videos:quote': { args: PickedVideosRequest; result: PickedVideoQuote };
  /** Queues those videos in the batch, refused if the balance does not cover them. */
  'videos:create': { args: PickedVideosRequest; result: BatchSummary };
  /**
   * What shooting products again would cost (by default those whose shots are all rejected), per product and
   * in all, against the balance of the batch's key; nothing is spent.
   */
  'reshoot:quote': { args: ReshootRequest; result: ReshootQuote };
  /** Adds those shoots to the batch, which runs again; refused if the balance does not cover them. */
  'reshoot:create': { args: ReshootRequest; result: BatchSummary };
  /** The OS dialog to choose one image file (a logo); null when cancelled. */
  'dialog:openImage': { args: undefined; result: string | null };
  /** The photo storage set up for remote services; null when none is. */
  'storage:get': { args: undefined; result: PhotoStorageView | null };
  /** Checks the storage end to end (a test photo uploaded and read back), then keeps it, secret sealed. */
  'storage:set': { args: PhotoStorageInput; result: PhotoStorageView };
  'storage:clear': { args: undefined; result: null };
  /** The export recipes: the built-ins, then the designer's own. */
  'export:recipes': { args: undefined; result: ExportRecipesView };
  /** Saves one of the designer's recipes (a new one, or one of the same id replaced). */
  'export:saveRecipe': { args: RecipeInput; result: Recipe };
  'export:deleteRecipe': { args: { id: string }; result: null };
  /** What an export would write, under which names, with what the plan can already warn about; nothing written. */
  'export:plan': { args: ExportRequest; result: ExportPlanView };
  /**
   * Starts an export from a snapshot of its settings (recipes, results, date); the same request as an
   * interrupted export resumes that one, under the same names.
   */
  'export:start': { args: ExportRequest; result: { id: string; resumed: boolean } };
  /** Runs an interrupted export again: what was finished is found and not written twice. */
  'export:resume': { args: { id: string }; result: ExportView };
  /** Stops an export: what it finished stays, what it half-wrote goes. */
  'export:cancel': { args: { id: string }; result: ExportView };
  /** Recent exports, newest first, with their state. */
  'export:list': { args: undefined; result: ExportView[] };
  'export:get': { args: { id: string }; result: ExportDetail };
  /** Gives up an interrupted export: it is no longer offered; what it finished stays, its half-written files go. */
  'export:discard': { args: { id: string }; result: null };
  /** The OS dialog to choose the folder an export goes into (one it may create); null when cancelled. */
  'dialog:openFolder': { args: undefined; result: string | null };
  /** Shows an export in Finder / Explorer / the file manager: its manifest selected in its folder. */
  'export:reveal': { args: { id: string }; result: null };
  /**
   * Drags Review's results out of the window (to the desktop, Finder, Explorer, Photoshop): all of them, the
   * files as they are, or made through a recipe first. Sent from the page's `dragstart`.
   */
  'export:drag': {
    args: { scope: ExportScope & { resultIds: number[] }; recipe?: string };
    result: { files: number };
  };
  'settings:get': { args: undefined; result: Settings };
  'settings:set': { args: Partial<Settings>; result: Settings };
}

export type Channel = keyof Handlers;
export type ArgsOf<C extends Channel> = Handlers[C]['args'];
export type ResultOf<C extends Channel> = Handlers[C]['result'];

export interface Events {
  /** At most about ten a second per batch. */
  'batches:progress': BatchProgress;
  /** A batch was created, finished, or needs the user. */
  'batches:changed': { id: string };
  /** Something about a batch the user should read (a pause's reason, a charge that differs from the price). */
  'batches:notice': { id: string; message: string };
  'accounts:changed': { id: string };
  /** This process started or stopped driving the queue (another process held it). */
  'queue:owner': QueueOwnerView;
  'ingest:progress': { checked: number; total: number };
  /** An export's progress, at most about ten a second per export. */
  'export:progress': ExportProgressView;
  /** An export ended (done, cancelled, stopped, failed, or interrupted as the app quit). */
  'export:changed': { id: string; state: ExportState };
  /** A menu command for the renderer: go to a screen, or scan what the OS dialog returned. */
  'app:command': { command: 'new-batch' | 'settings' } | { command: 'scan'; inputs: string[] };
  /** An agent's request was made or decided. */
  'agents:changed': { id: string; state: AgentRequestState; client: string; name: string; credits: number };
}

export type EventName = keyof Events;

/** What every transport answers: a result, or an error the renderer can show as it is. */
export type Reply<C extends Channel> =
  | { ok: true; value: ResultOf<C> }
  | { ok: false; error: { code: string; message: string } };
