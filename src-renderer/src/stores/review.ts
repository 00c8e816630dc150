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
import { applyReviewChange } from '../../../src-main/shared/review-change.ts';
import { isReviewed, matchesReviewFilter } from '../../../src-main/shared/review-filter.ts';
import { api, messageOf } from '../api/index.ts';
import { firstScreenIn } from '../review/first-screen.ts';
import { comparePair, surveyItems } from '../review/panes.ts';
import { toggledLabel } from '../review/ResultMarks.tsx';
import { recount } from '../review/recount.ts';
import { useReviewMemory } from '../review/review-memory.ts';
import { inSortOrder, type ReviewSort } from '../review/sort.ts';

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
  /** The client brand the batch reviewed is billed to; null when none or across batches. */
  brandName: string | null;
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
  /**
   * Results shown with a decision core has not committed yet, by how many such decisions: a decision shows
   * at once, and the view marks it busy until it is safe (what the kill test waits for).
   */
  saving: ReadonlyMap<number, number>;
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
  /** Puts the active result's focus point (null: clears it), which its export's crops centre on. */
  setFocus(focus: ReviewItemView['focus']): Promise<void>;
}

/**
 * The panes of compare (the selection, 2 to 4, else the active result and the next of its product) and survey
 * (the selection, else the active result's product, of its kind): review/panes.ts.
 */
export function panesOf(
  visible: readonly ReviewItemView[],
  state: Pick<ReviewState, 'selected' | 'activeId' | 'mode'>,
): ReviewItemView[] {
  const at = visible.findIndex((item) => item.id === state.activeId);
  if (state.mode === 'survey') return surveyItems(visible, at, state.selected);
  const chosen = visible.filter((item) => state.selected.has(item.id)).slice(0, 4);
  return chosen.length >= 2 ? chosen : comparePair(visible, at);
}

/** The last answer of visibleItems, and what it was asked about. */
let lastVisible: {
  asked: Pick<ReviewState, 'items' | 'filter' | 'pinned'> & { sort: ReviewSort };
  visible: ReviewItemView[];
} | null = null;

/**
 * The results the screen shows: those the filter keeps, and the pinned ones, in the sort's order (the batch's
 * unless another was chosen, review/sort.ts). Worked out again only when the results, the filter, the pinned
 * ones or the sort changed: a step in the loupe or the grid asks it several times over 8,000 results, within
 * the key's frame.
 */
export function visibleItems(state: Pick<ReviewState, 'items' | 'filter' | 'pinned'>): ReviewItemView[] {
  const last = lastVisible;
  const { sort } = useReviewMemory.getState();
  if (
    last &&
    last.asked.items === state.items &&
    last.asked.filter === state.filter &&
    last.asked.pinned === state.pinned &&
    last.asked.sort === sort
  )
    return last.visible;
  const visible = inSortOrder(state.items, sort).filter(
    (item) => state.pinned.has(item.id) || matchesReviewFilter(item, state.filter),
  );
  lastVisible = { asked: { items: state.items, filter: state.filter, pinned: state.pinned, sort }, visible };
  return visible;
}

/**
 * The visible results, for a component: it renders again only when the results, the filter or the pinned ones
 * change, not for a pan, a wipe, a selection or a decision's saving mark; visibleItems keeps the last answer.
 */
export function useVisibleItems(): ReviewItemView[] {
  const items = useReview((state) => state.items);
  const filter = useReview((state) => state.filter);
  const pinned = useReview((state) => state.pinned);
  // Read by visibleItems itself; asked for here so that a new sort renders the results again.
  useReviewMemory((memory) => memory.sort);
  return visibleItems({ items, filter, pinned });
}

function sameScope(a: ReviewScope | null, b: ReviewScope): boolean {
  return a !== null && a.batchId === b.batchId && a.product === b.product;
}

/**
 * The first answer of review:get: about a large screen's grid (1920x1080: 9 by 5 tiles) with room to move,
 * so the view shows before the rest of a big batch has crossed. The rest follows once the first screen is in
 * (review/first-screen.ts), in pages, so that core stays free for a moment between them.
 */
const FIRST_PAGE = 200;
const PAGE = 1000;

/** A result as a change leaves it, as the renderer shows it until core answers. */
function decided(item: ReviewItemView, change: ReviewChange): ReviewItemView {
  const after = applyReviewChange(item, change);
  return { ...after, reviewed: isReviewed(after) };
}

export const useReview = create<ReviewState>((set, get) => {
  /**
   * Settles once every result of the batch has come. A decision names only results the view has (a page
   * never splits a product); an undo or a redo may name any, so it waits for this first.
   */
  let whole: Promise<void> = Promise.resolve();

  /** These results replace those of the same id; the counts follow them. */
  const replace = (changed: readonly ReviewItemView[]) => {
    const byId = new Map(changed.map((item) => [item.id, item]));
    const changes: Array<{ before: ReviewItemView; after: ReviewItemView }> = [];
    const items = get().items.map((item) => {
      const after = byId.get(item.id);
      if (!after) return item;
      changes.push({ before: item, after });
      return after;
    });
    const counts = get().counts;
    set({ items, counts: counts && recount(counts, changes) });
  };

  /**
   * The results without changes of this screen on their way to core beyond `own` (the caller's): a result
   * changed again while an answer was on its way keeps the later change on screen. Core answers in order,
   * so the later answer carries both, and the earlier one must not take it back meanwhile.
   */
  const unchangedSince = <T extends { id: number }>(items: readonly T[], own: number) =>
    items.filter((item) => (get().saving.get(item.id) ?? 0) <= own);

  /** Core's answer replaces the items it names, but those changed since it was asked (`own`: the caller's). */
  const merge = (answer: ReviewDecided, pin: boolean, own = 0) => {
    replace(unchangedSince(answer.items, own));
    const pinned = new Set(get().pinned);
    if (pin) for (const item of answer.items) pinned.add(item.id);
    set({ pinned, canUndo: answer.canUndo, canRedo: answer.canRedo });
  };

  const run = async (work: () => Promise<void>) => {
    try {
      await work();
      set({ error: null });
    } catch (failure) {
      set({ error: messageOf(failure) });
    }
  };

  /** Undo or redo: its results come back into view, even where the filter hides them, the first one active. */
  const step = async (channel: 'review:undo' | 'review:redo') => {
    const { scope } = get();
    if (!scope) return;
    await run(async () => {
      await whole;
      const answer = await api.call(channel, scope);
      merge(answer, true);
      if (answer.items[0]) set({ activeId: answer.items[0].id });
    });
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
    brandName: null,
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
    saving: new Map(),

    async load(scope, focus) {
      await run(async () => {
        const view = await api.call('review:get', { ...scope, page: { offset: 0, limit: FIRST_PAGE } });
        /** The pages after the first, in order; the counts came whole with the first and follow decisions. */
        const rest = async (onPage: (items: ReviewItemView[]) => void) => {
          for (let offset = view.items.length; offset < view.matching; ) {
            const page = await api.call('review:get', { ...scope, page: { offset, limit: PAGE } });
            if (page.items.length === 0) return;
            onPage(page.items);
            offset += page.items.length;
          }
        };
        const keep = sameScope(get().scope, scope);
        const items = [...view.items];
        // Opened again, the scope's results stay on screen until they have all come, so the active one is
        // kept; a result to open on beyond the first page is waited for too.
        const beyond = focus !== undefined && !items.some((item) => item.id === focus);
        const complete = keep || beyond;
        if (complete) await rest((page) => items.push(...page));
        const focused = items.some((item) => item.id === focus) ? focus : undefined;
        set({
          scope,
          product: view.product ?? null,
          brandName: view.brandName,
          items,
          counts: view.counts,
          canUndo: view.canUndo,
          canRedo: view.canRedo,
          ...(keep ? {} : { filter: {}, pinned: new Set(), selected: new Set(), mode: 'grid' as const }),
          activeId: focused ?? (keep && get().activeId !== null ? get().activeId : (items[0]?.id ?? null)),
        });
        if (!complete) {
          whole = firstScreenIn().then(() =>
            rest((page) => {
              if (sameScope(get().scope, scope)) set({ items: [...get().items, ...page] });
            }),
          );
          await whole;
        }
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
      // The same set when nothing leaves it: the results shown are then not worked out again.
      if (left && pinned.has(left.id) && !matchesReviewFilter(left, filter)) {
        const nextPinned = new Set(pinned);
        nextPinned.delete(left.id);
        set({ activeId: id, pinned: nextPinned });
      } else set({ activeId: id });
    },

    move(by) {
      const state = get();
      // In compare and survey the arrows go from pane to pane: the active pane takes the keys.
      const visible = visibleItems(state);
      const steps = state.mode === 'compare' || state.mode === 'survey' ? panesOf(visible, state) : visible;
      const at = steps.findIndex((item) => item.id === state.activeId);
      const next = steps[Math.min(steps.length - 1, Math.max(0, at + by))];
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
      const resultIds = mode === 'grid' && selected.size > 0 ? [...selected] : [activeId];
      // Shown at once, within the frame, and moved on from; core's answer, the truth, replaces it (and a
      // refusal puts the results back as they were).
      const named = new Set(resultIds);
      const before = get().items.filter((item) => named.has(item.id));
      change = toggledLabel(change, before);
      replace(before.map((item) => decided(item, change)));
      if (!get().pinned.has(activeId)) set({ pinned: new Set([...get().pinned, activeId]) });
      // Auto-advance moves through the list; compare, survey and wipe keep their panes. A colour label alone
      // stays: it is no review (the same key again takes it away, on the same result).
      const single = mode === 'loupe' || mode === 'grid';
      const labelOnly = Object.keys(change).every((key) => key === 'label');
      if (get().autoAdvance && resultIds.length === 1 && single && !labelOnly) advanceFrom(activeId);
      const saving = (by: 1 | -1) => {
        const next = new Map(get().saving);
        for (const id of resultIds) {
          const count = (next.get(id) ?? 0) + by;
          if (count > 0) next.set(id, count);
          else next.delete(id);
        }
        set({ saving: next });
      };
      saving(1);
      await run(async () => {
        try {
          merge(await api.call('review:decide', { ...scope, resultIds, change }), false, 1);
        } catch (failure) {
          replace(unchangedSince(before, 1));
          throw failure;
        } finally {
          saving(-1);
        }
      });
    },

    async keep() {
      const { scope, activeId } = get();
      if (!scope || activeId === null) return;
      await run(async () => {
        merge(await api.call('review:keep', { ...scope, resultId: activeId }), false);
        set({ pinned: new Set([...get().pinned, activeId]) });
        if (get().autoAdvance) advanceFrom(activeId);
      });
    },

    async setFocus(focus) {
      const { scope, activeId, items } = get();
      const before = items.find((item) => item.id === activeId);
      if (!scope || !before || before.kind === 'video') return;
      // Shown at once; a refusal puts the point back where it was.
      replace([{ ...before, focus }]);
      await run(async () => {
        try {
          await api.call('review:setFocus', { ...scope, resultId: before.id, focus });
        } catch (failure) {
          replace([before]);
          throw failure;
        }
      });
    },

    undo: () => step('review:undo'),

    redo: () => step('review:redo'),
  };
});
