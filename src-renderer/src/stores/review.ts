import { create } from 'zustand';
import type {
  ReviewChange,
  ReviewCounts,
  ReviewDecided,
  ReviewFilter,
  ReviewItemView,
  ReviewProductView,
  ReviewScope,
} from '../../../src-main/shared/models.ts';
import { isReviewed, matchesReviewFilter } from '../../../src-main/shared/review-filter.ts';
import { api, messageOf } from '../api/index.ts';

// One batch's review in the renderer: every result of the batch, the filter applied here (so a decision
// shows within the frame), the active result, the grid's selection, and the rules of moving on. Decisions go
// to core at once; its answer is the truth.
//
// Never an empty screen, never back to the first: a result the filter no longer keeps stays in view while it
// is the active one (it is pinned), and auto-advance goes forward only, to the next result that the filter
// keeps and that is not reviewed yet, or stays where it is.

export type ReviewMode = 'grid' | 'loupe' | 'compare' | 'survey' | 'wipe';

/** How the panes of the loupe, compare, survey and wipe are zoomed and panned: one for all, so they stay locked. */
export interface View {
  zoom: 1 | 2;
  /** Pan, in percent of the pane, at 2x. */
  x: number;
  y: number;
}

interface ReviewState {
  /** Whose results: a batch's, or one product's across batches (then `product` says which). */
  scope: ReviewScope | null;
  product: ReviewProductView | null;
  items: ReviewItemView[];
  counts: ReviewCounts | null;
  filter: ReviewFilter;
  /** Shown whatever the filter says: the active result once decided, results an undo brought back. */
  pinned: Set<number>;
  activeId: number | null;
  selected: Set<number>;
  mode: ReviewMode;
  autoAdvance: boolean;
  view: View;
  /** Where the A/B wipe divides the result (left) from its source photo (right), in percent. */
  wipe: number;
  canUndo: boolean;
  canRedo: boolean;
  error: string | null;
  /** Loads the scope's results; `focus` becomes the active result where it is one of them. */
  load(scope: ReviewScope, focus?: number): Promise<void>;
  setFilter(filter: ReviewFilter): void;
  setMode(mode: ReviewMode): void;
  activate(id: number): void;
  move(by: 1 | -1): void;
  toggleSelected(id?: number): void;
  selectAll(): void;
  toggleAutoAdvance(): void;
  toggleZoom(): void;
  panBy(dx: number, dy: number): void;
  moveWipe(by: number): void;
  decide(change: ReviewChange): Promise<void>;
  keep(): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/**
 * The panes of compare (the selection, 2 to 4, else the active result and the next) and survey (the active
 * result's product, of its kind).
 */
export function panesOf(
  state: Pick<ReviewState, 'items' | 'filter' | 'pinned' | 'selected' | 'activeId' | 'mode'>,
): ReviewItemView[] {
  const visible = visibleItems(state);
  const at = visible.findIndex((item) => item.id === state.activeId);
  const active = visible[at];
  if (!active) return [];
  if (state.mode === 'survey') {
    return visible.filter((item) => item.productId === active.productId && item.kind === active.kind);
  }
  const chosen = visible.filter((item) => state.selected.has(item.id)).slice(0, 4);
  return chosen.length >= 2 ? chosen : visible.slice(at, at + 2);
}

/** The results the screen shows: those the filter keeps, and the pinned ones, in the batch's order. */
export function visibleItems(state: Pick<ReviewState, 'items' | 'filter' | 'pinned'>): ReviewItemView[] {
  return state.items.filter((item) => state.pinned.has(item.id) || matchesReviewFilter(item, state.filter));
}

function sameScope(a: ReviewScope | null, b: ReviewScope): boolean {
  return a !== null && a.batchId === b.batchId && a.product === b.product;
}

function countsOf(items: readonly ReviewItemView[], before: ReviewCounts | null): ReviewCounts | null {
  if (!before) return null;
  const reviewed = items.filter(isReviewed).length;
  const picked = items.filter((item) => item.flag === 'picked').length;
  const rejected = items.filter((item) => item.flag === 'rejected').length;
  const atLeastStars = [0, 1, 2, 3, 4, 5].map((stars) => items.filter((item) => item.stars >= stars).length);
  return { ...before, reviewed, picked, rejected, unflagged: items.length - picked - rejected, atLeastStars };
}

export const useReview = create<ReviewState>((set, get) => {
  /** Core's answer replaces the items it names. */
  const merge = (answer: ReviewDecided, pin: boolean) => {
    const changed = new Map(answer.items.map((item) => [item.id, item]));
    const items = get().items.map((item) => changed.get(item.id) ?? item);
    const pinned = new Set(get().pinned);
    if (pin) for (const id of changed.keys()) pinned.add(id);
    set({
      items,
      pinned,
      counts: countsOf(items, get().counts),
      canUndo: answer.canUndo,
      canRedo: answer.canRedo,
    });
  };

  const run = async (work: () => Promise<void>) => {
    try {
      await work();
      set({ error: null });
    } catch (failure) {
      set({ error: messageOf(failure) });
    }
  };

  /** After a decision on the active result: the next one the filter keeps that is not reviewed, if any. */
  const advanceFrom = (id: number) => {
    const state = get();
    const visible = visibleItems(state);
    const at = visible.findIndex((item) => item.id === id);
    const next = visible
      .slice(at + 1)
      .find((item) => !isReviewed(item) && matchesReviewFilter(item, state.filter));
    if (next) get().activate(next.id);
  };

  return {
    scope: null,
    product: null,
    items: [],
    counts: null,
    filter: {},
    pinned: new Set(),
    activeId: null,
    selected: new Set(),
    mode: 'grid',
    autoAdvance: true,
    view: { zoom: 1, x: 0, y: 0 },
    wipe: 50,
    canUndo: false,
    canRedo: false,
    error: null,

    async load(scope, focus) {
      await run(async () => {
        const view = await api.call('review:get', scope);
        const keep = sameScope(get().scope, scope);
        const focused = view.items.some((item) => item.id === focus) ? focus : undefined;
        set({
          scope,
          product: view.product ?? null,
          items: view.items,
          counts: view.counts,
          canUndo: view.canUndo,
          canRedo: view.canRedo,
          ...(keep ? {} : { filter: {}, pinned: new Set(), selected: new Set(), mode: 'grid' as const }),
          activeId:
            focused ?? (keep && get().activeId !== null ? get().activeId : (view.items[0]?.id ?? null)),
        });
      });
    },

    setFilter(filter) {
      const state = get();
      const visible = visibleItems({ ...state, filter, pinned: new Set() });
      // The active result stays if the filter keeps it; with nothing to show, it is kept for when there is.
      const activeId = visible.some((item) => item.id === state.activeId)
        ? state.activeId
        : (visible[0]?.id ?? state.activeId);
      set({ filter, pinned: new Set(), selected: new Set(), activeId });
    },

    setMode: (mode) => set({ mode, view: { zoom: 1, x: 0, y: 0 } }),

    activate(id) {
      const { activeId, pinned, filter, items } = get();
      // Moving on lets the result that was active leave the view if the filter no longer keeps it.
      const left = items.find((item) => item.id === activeId);
      const nextPinned = new Set(pinned);
      if (left && !matchesReviewFilter(left, filter)) nextPinned.delete(left.id);
      set({ activeId: id, pinned: nextPinned });
    },

    move(by) {
      const state = get();
      // In compare and survey the arrows go from pane to pane: the active pane takes the keys.
      const visible =
        state.mode === 'compare' || state.mode === 'survey' ? panesOf(state) : visibleItems(state);
      const at = visible.findIndex((item) => item.id === state.activeId);
      const next = visible[Math.min(visible.length - 1, Math.max(0, at + by))];
      if (next) get().activate(next.id);
    },

    toggleSelected(id) {
      const target = id ?? get().activeId;
      if (target === null) return;
      const selected = new Set(get().selected);
      if (selected.has(target)) selected.delete(target);
      else selected.add(target);
      set({ selected });
    },

    selectAll: () => set({ selected: new Set(visibleItems(get()).map((item) => item.id)) }),

    toggleAutoAdvance: () => set({ autoAdvance: !get().autoAdvance }),

    toggleZoom: () => set({ view: { zoom: get().view.zoom === 1 ? 2 : 1, x: 0, y: 0 } }),

    panBy(dx, dy) {
      const { view } = get();
      if (view.zoom === 1) return;
      // At 2x the image may move by a quarter of its size each way before its edge shows.
      const clamp = (value: number) => Math.max(-25, Math.min(25, value));
      set({ view: { ...view, x: clamp(view.x + dx), y: clamp(view.y + dy) } });
    },

    moveWipe: (by) => set({ wipe: Math.max(0, Math.min(100, get().wipe + by)) }),

    async decide(change) {
      const { scope, mode, selected, activeId } = get();
      if (!scope || activeId === null) return;
      // In the loupe a key acts on the result on screen; in the grid on the selection, else the active one.
      const itemIds = mode === 'grid' && selected.size > 0 ? [...selected] : [activeId];
      await run(async () => {
        merge(await api.call('review:decide', { ...scope, itemIds, change }), false);
        set({ pinned: new Set([...get().pinned, activeId]) });
        // Auto-advance moves through the list; compare, survey and wipe keep their panes.
        const single = get().mode === 'loupe' || get().mode === 'grid';
        if (get().autoAdvance && itemIds.length === 1 && single) advanceFrom(activeId);
      });
    },

    async keep() {
      const { scope, activeId } = get();
      if (!scope || activeId === null) return;
      await run(async () => {
        merge(await api.call('review:keep', { ...scope, itemId: activeId }), false);
        set({ pinned: new Set([...get().pinned, activeId]) });
        if (get().autoAdvance) advanceFrom(activeId);
      });
    },

    async undo() {
      const { scope } = get();
      if (!scope) return;
      await run(async () => {
        const answer = await api.call('review:undo', scope);
        // An undone decision brings its result back into view, even where the filter hides it.
        merge(answer, true);
        if (answer.items[0]) set({ activeId: answer.items[0].id });
      });
    },

    async redo() {
      const { scope } = get();
      if (!scope) return;
      await run(async () => {
        const answer = await api.call('review:redo', scope);
        merge(answer, true);
        if (answer.items[0]) set({ activeId: answer.items[0].id });
      });
    },
  };
});
