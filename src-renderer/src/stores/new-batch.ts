import { create } from 'zustand';
import { lastPathPart, namingInput } from '../../../src-main/shared/batch-name.ts';
import type {
  QuoteRequest,
  QuoteView,
  ScanView,
  ShootSettingsView,
  VideoSettingsView,
} from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { useAccounts } from './accounts.ts';
import { useCatalog } from './catalog.ts';

// The New batch screen: what was dropped, the settings chosen, and the live cost preview. The settings start
// from the catalog's defaults when the first photos are chosen, and are kept for the next drop.

/** The video step: made after review from the picks (the default), at once from the first shots, or none. */
export type VideoStep = 'after_review' | 'at_once' | 'none';

interface NewBatchState {
  inputs: string[];
  scan: ScanView | null;
  scanning: { checked: number; total: number } | null;
  /** The scan under way's own name, to cancel it alone (the app's, never an agent's); null when none is. */
  scanToken: string | null;
  /** The scan under way was told to stop: it ends once the checks already started are done. */
  cancelling: boolean;
  accountId: string;
  /**
   * Agency keys: the client brand billed; null when the user chose none (the agency's own work); undefined
   * while not chosen yet (Start waits for the choice). A key pinned to a brand starts on that brand.
   */
  brandId: string | null | undefined;
  /** The most this batch may spend, in credits; null: no cap of its own. */
  creditCap: number | null;
  /** null until photos are chosen: then the catalog's defaults. */
  shoot: ShootSettingsView | null;
  /** The video's settings, null until photos are chosen; whether and when it is made is `videoStep`. */
  video: VideoSettingsView | null;
  videoStep: VideoStep;
  includeDone: boolean;
  name: string;
  quote: QuoteView | null;
  quoting: boolean;
  starting: boolean;
  error: string | null;
  /** A folder of photos inside another: a product of its own, or part of the one above. */
  subfolders: 'own' | 'parent';
  scanInputs(inputs: string[]): Promise<void>;
  /** Stops the scan under way: it ends refused as cancelled, and nothing is planned. */
  cancelScan(): Promise<void>;
  /** Scans the same inputs again with subfolders taken the other way. */
  setSubfolders(subfolders: 'own' | 'parent'): Promise<void>;
  setAccount(accountId: string): void;
  setBrand(brandId: string | null): void;
  setCreditCap(creditCap: number | null): void;
  setShoot(patch: Partial<ShootSettingsView>): void;
  setVideo(video: VideoSettingsView): void;
  setVideoStep(step: VideoStep): void;
  setIncludeDone(includeDone: boolean): void;
  setName(name: string): void;
  /** Makes the product's photo at this position its hero. */
  setHero(product: string, photo: number): Promise<void>;
  /** Leaves the product out of the batch, or takes it back in. */
  leaveOut(product: string, out: boolean): Promise<void>;
  requestQuote(): Promise<void>;
  /** Resolves to the new batch's id, or null when it could not start (the error says why). */
  start(): Promise<string | null>;
  reset(): void;
}

const initial = {
  inputs: [],
  subfolders: 'own' as const,
  scan: null,
  scanning: null,
  scanToken: null,
  cancelling: false,
  accountId: 'sandbox',
  brandId: undefined,
  creditCap: null,
  shoot: null,
  video: null,
  videoStep: 'after_review' as VideoStep,
  includeDone: false,
  name: '',
  quote: null,
  quoting: false,
  starting: false,
  error: null,
};

function quoteRequestOf(state: NewBatchState, scan: ScanView, shoot: ShootSettingsView): QuoteRequest {
  const { accountId, video, videoStep, includeDone, brandId, creditCap } = state;
  const billing = { brandId: brandId ?? null, creditCap };
  if (videoStep === 'none' || !video)
    return { scanId: scan.scanId, accountId, shoot, video: null, includeDone, ...billing };
  return { scanId: scan.scanId, accountId, shoot, video, videoWhen: videoStep, includeDone, ...billing };
}

/** The brand a batch on this account starts on: the one its key is pinned to, else not chosen yet. */
function brandOf(accountId: string): string | undefined {
  const account = useAccounts.getState().accounts.find((one) => one.id === accountId);
  return account?.brandId ?? undefined;
}

/** Quotes are asked for in order; only the answer to the latest request is kept. */
let quoteRequest = 0;

export const useNewBatch = create<NewBatchState>((set, get) => ({
  ...initial,
  async scanInputs(inputs) {
    // A drop while a scan runs replaces it: the one under way is stopped, and its answer never shown.
    await get().cancelScan();
    const scanToken = crypto.randomUUID();
    set({
      inputs,
      scan: null,
      quote: null,
      scanning: { checked: 0, total: 0 },
      scanToken,
      cancelling: false,
      error: null,
    });
    const current = () => get().scanToken === scanToken;
    try {
      const [scan, catalog, last] = await Promise.all([
        api.call('ingest:scan', { inputs, subfolders: get().subfolders, scanToken }),
        useCatalog.getState().ready(),
        // Settings chosen on this screen are kept for the next drop; a fresh screen starts from the last batch's.
        get().shoot ? null : api.call('batches:lastSettings'),
      ]);
      if (!current()) return;
      const naming = namingInput(inputs, scan);
      const folder = naming ? lastPathPart(naming) : 'Batch';
      set({
        scan,
        name: get().name || folder,
        shoot: get().shoot ?? last?.shoot ?? catalog.defaults.shoot,
        video: get().video ?? last?.video ?? catalog.defaults.video,
        ...(last
          ? {
              accountId: last.accountId,
              brandId: brandOf(last.accountId),
              videoStep: last.videoWhen ?? 'none',
            }
          : {}),
      });
      await get().requestQuote();
    } catch (error) {
      if (current()) set({ error: messageOf(error) });
    } finally {
      if (current()) set({ scanning: null, scanToken: null, cancelling: false });
    }
  },
  async cancelScan() {
    const { scanToken } = get();
    if (!scanToken) return;
    await api.call('ingest:cancelScan', { scanToken });
    if (get().scanToken === scanToken) set({ cancelling: true });
  },
  async setSubfolders(subfolders) {
    set({ subfolders });
    const { inputs } = get();
    if (inputs.length > 0) await get().scanInputs(inputs);
  },
  setAccount(accountId) {
    set({ accountId, brandId: brandOf(accountId) });
    void get().requestQuote();
  },
  setBrand(brandId) {
    set({ brandId });
    void get().requestQuote();
  },
  setCreditCap(creditCap) {
    set({ creditCap });
    void get().requestQuote();
  },
  setShoot(patch) {
    const current = get().shoot;
    if (!current) return;
    const shoot = { ...current, ...patch };
    if (shoot.mode === 'product_only') shoot.modelUrl = null;
    // A style that makes fewer shots takes the shots down with it: its Shots offers no more (ShotChoices).
    const catalog = useCatalog.getState().catalog;
    const style = catalog?.styles.find((one) => one.id === shoot.style);
    if (catalog && style && !style.sixShots && shoot.shots > catalog.clampedShots) {
      shoot.shots = catalog.shotCounts.filter((count) => count <= catalog.clampedShots).at(-1) ?? shoot.shots;
    }
    set({ shoot });
    void get().requestQuote();
  },
  setVideo(video) {
    set({ video });
    void get().requestQuote();
  },
  setVideoStep(videoStep) {
    set({ videoStep });
    void get().requestQuote();
  },
  setIncludeDone(includeDone) {
    set({ includeDone });
    void get().requestQuote();
  },
  setName: (name) => set({ name }),
  async setHero(product, photo) {
    const scan = get().scan;
    if (!scan) return;
    try {
      const updated = await api.call('ingest:hero', { scanId: scan.scanId, product, photo });
      const current = get().scan;
      if (current?.scanId !== scan.scanId) return;
      set({
        scan: {
          ...current,
          products: current.products.map((item) => (item.name === product ? updated : item)),
        },
      });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async leaveOut(product, out) {
    const scan = get().scan;
    if (!scan) return;
    // Shown at once (the box follows the click), put back if core refuses.
    const mark = (leftOut: boolean) => {
      const current = get().scan;
      if (current?.scanId !== scan.scanId) return;
      set({
        scan: {
          ...current,
          products: current.products.map((item) => (item.name === product ? { ...item, leftOut } : item)),
        },
      });
    };
    mark(out);
    try {
      await api.call('ingest:leaveOut', { scanId: scan.scanId, product, out });
      await get().requestQuote();
    } catch (error) {
      mark(!out);
      set({ error: messageOf(error) });
    }
  },
  async requestQuote() {
    const { scan, shoot } = get();
    if (!scan || !shoot || scan.products.length === 0) return;
    if (shoot.mode === 'with_model' && !shoot.modelUrl) {
      set({ quote: null });
      return;
    }
    const request = ++quoteRequest;
    set({ quoting: true });
    try {
      const quote = await api.call('batches:quote', quoteRequestOf(get(), scan, shoot));
      if (request === quoteRequest) set({ quote, error: null });
    } catch (error) {
      if (request === quoteRequest) set({ quote: null, error: messageOf(error) });
    } finally {
      if (request === quoteRequest) set({ quoting: false });
    }
  },
  async start() {
    const { scan, shoot, name } = get();
    if (!scan || !shoot) return null;
    set({ starting: true, error: null });
    try {
      const batch = await api.call('batches:create', {
        ...quoteRequestOf(get(), scan, shoot),
        name: name.trim() || 'Batch',
      });
      set({ ...initial });
      return batch.id;
    } catch (error) {
      set({ error: messageOf(error) });
      return null;
    } finally {
      set({ starting: false });
    }
  },
  reset: () => set({ ...initial }),
}));

api.on('ingest:progress', ({ scanToken, checked, total }) => {
  // Only this dialog's scan under way: a scan it replaced or cancelled may still report.
  const state = useNewBatch.getState();
  if (state.scanning && scanToken === state.scanToken) useNewBatch.setState({ scanning: { checked, total } });
});
