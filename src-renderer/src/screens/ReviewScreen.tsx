import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, type PointerEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { ReviewFilter, ReviewItemView, ReviewScope } from '../../../src-main/shared/models.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { ModalSheet } from '../components/ModalSheet.tsx';
import { Notice } from '../components/Notice.tsx';
import { dragResults } from '../export/drag-out.ts';
import { DragOutChoice, ReviewExportButton } from '../export/ExportButtons.tsx';
import { Filmstrip } from '../review/Filmstrip.tsx';
import { useFittedPanes } from '../review/fitted-panes.ts';
import { bindingOf, keyLabel, REASON_KEYS, REVIEW_KEYMAP, type ReviewAction } from '../review/keymap.ts';
import { LoupeVideo } from '../review/LoupeVideo.tsx';
import { useReviewLayout } from '../review/layout.ts';
import { MakeVideosDialog } from '../review/MakeVideosDialog.tsx';
import { moveVertically } from '../review/moves.ts';
import { BatchOf, ProductSummary, toggleProductScope } from '../review/ProductScope.tsx';
import { imageFor, usePreloaded } from '../review/preload.ts';
import { ReshootButton } from '../review/ReshootDialog.tsx';
import { LabelFilter, LabelMark, TileImage } from '../review/ResultMarks.tsx';
import { useRememberedPosition } from '../review/remembered-position.ts';
import { rememberedResult } from '../review/review-memory.ts';
import { SortControl } from '../review/SortControl.tsx';
import { videoOnScreen } from '../review/video-transport.ts';
import { useNavigation } from '../stores/navigation.ts';
import { panesOf, type ReviewMode, useReview, useVisibleItems } from '../stores/review.ts';

// Review: a batch's results in a grid or one at a time (loupe), decided by keyboard. Keys come from the
// keymap; in the loupe a key acts on the result on screen, in the grid on the selection (else the active
// result), with the count on screen.

const TILE_WIDTH = 200;
const TILE_HEIGHT = 256;
const MODES: Array<{ mode: ReviewMode; label: string }> = [
  { mode: 'grid', label: 'Grid' },
  { mode: 'loupe', label: 'Loupe' },
  { mode: 'compare', label: 'Compare' },
  { mode: 'survey', label: 'Survey' },
  { mode: 'wipe', label: 'Wipe' },
];
const REASON_LABELS = Object.fromEntries(
  REASON_KEYS.map(({ reason, label }) => [reason, label.replace('Reject: ', '')]),
);

function Stars({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="stars" role="img" aria-label={counted(count, 'star')}>
      {'★'.repeat(count)}
    </span>
  );
}

function FlagBadge({ item }: { item: ReviewItemView }) {
  if (item.flag === 'picked') return <span className="flag flag-picked">Picked</span>;
  if (item.flag !== 'rejected') return null;
  const words = `Rejected${item.rejectReason ? `: ${REASON_LABELS[item.rejectReason]}` : ''}`;
  // The whole words in a tooltip too: a tile's caption ends in an ellipsis where it is narrow (the loupe
  // and the panes say them all).
  return (
    <span className="flag flag-rejected" title={words}>
      {words}
    </span>
  );
}

function itemName(item: ReviewItemView): string {
  return `${item.productName}, ${item.kind} ${item.index}`;
}

/** Shift, Ctrl or Cmd adds to the selection or takes away from it; a click makes the result active. */
function pickTile(event: React.MouseEvent, item: ReviewItemView): void {
  const review = useReview.getState();
  if (event.shiftKey || event.ctrlKey || event.metaKey) review.toggleSelected(item.id);
  review.activate(item.id);
}

/** Renders again only when its own result, state or handler changed: not for every tile of the grid. */
const Tile = memo(function Tile({
  item,
  active,
  selected,
  saving,
  skimming,
  onPick,
}: {
  item: ReviewItemView;
  active: boolean;
  selected: boolean;
  /** Its decision is on screen but not committed yet. */
  saving: boolean;
  /** The grid flies past: an image would be fetched and decoded for a frame or two on screen. */
  skimming: boolean;
  onPick: (event: React.MouseEvent, item: ReviewItemView) => void;
}) {
  return (
    <button
      type="button"
      className={`tile${active ? ' tile-active' : ''}${selected ? ' tile-selected' : ''} tile-${item.flag ?? 'none'}`}
      aria-current={active ? 'true' : undefined}
      aria-busy={saving || undefined}
      aria-pressed={selected}
      onClick={(event) => onPick(event, item)}
      onDoubleClick={() => useReview.getState().setMode('loupe')}
      tabIndex={-1}
      // Dragged out of the window: the selection when this tile is in it (main drags every file).
      draggable
      onDragStart={(event) => dragResults(event, item)}
    >
      {skimming ? (
        <span className="tile-image tile-skimmed" />
      ) : (
        // Keyed by the result: a tile reused for another result gets a new image element, never the last
        // result's picture while the new one loads.
        <TileImage key={item.id} item={item} />
      )}
      <span className="tile-caption">{itemName(item)}</span>
      <BatchOf item={item} />
      <span className="tile-marks">
        <LabelMark label={item.label} />
        <FlagBadge item={item} />
        <Stars count={item.stars} />
      </span>
    </button>
  );
});

/**
 * Faster than this, in px per ms over the last SKIM_WINDOW_MS, the grid skims: its tiles show their names
 * without images until it slows or stops. (A guess: a wheel, a page key or a one-row jump goes below it; a
 * fling across 8,000 results goes at 50 and more, where each frame would mount some 30 images only to drop
 * them: frame work p95 40 ms against 7 on bench:review.)
 */
const SKIM_PX_PER_MS = 8;
const SKIM_WINDOW_MS = 100;

/** Whether the grid is skimming, from how far it scrolled in the last SKIM_WINDOW_MS. */
function useSkimming(offset: number, scrolling: boolean): boolean {
  const samples = useRef<Array<{ offset: number; at: number }>>([]);
  const skimming = useRef(false);
  const now = performance.now();
  const recent = samples.current.filter((sample) => now - sample.at <= SKIM_WINDOW_MS);
  // A render without scrolling (a decision, a resize) keeps the state the last scroll left.
  if (!scrolling) skimming.current = false;
  else if (recent.at(-1)?.offset !== offset) {
    const from = recent[0]?.offset ?? offset;
    skimming.current = Math.abs(offset - from) / SKIM_WINDOW_MS > SKIM_PX_PER_MS;
    recent.push({ offset, at: now });
  }
  samples.current = recent;
  return skimming.current;
}

/**
 * Each rendered row's slot: a row that stays keeps its slot, and a row scrolled into view takes the slot of
 * one that left. Keyed by slot, React moves and refills the rows and tiles already in the page instead of
 * removing some 30 tiles and building as many anew on every frame of a fast scroll (frame work p95 8.7 ms
 * against the target's 8 on bench:review, most of it creating and dropping elements).
 */
function useSlots(indexes: readonly number[]): Map<number, number> {
  const last = useRef(new Map<number, number>());
  const slots = new Map<number, number>();
  const used = new Set<number>();
  for (const index of indexes) {
    const slot = last.current.get(index);
    if (slot !== undefined) {
      slots.set(index, slot);
      used.add(slot);
    }
  }
  let free = 0;
  for (const index of indexes) {
    if (slots.has(index)) continue;
    while (used.has(free)) free++;
    slots.set(index, free);
    used.add(free);
  }
  last.current = slots;
  return slots;
}

/**
 * Rows drawn beyond the grid's edges. One is enough for a wheel or a page key (the next row is ready before
 * it shows); more cost every frame of a fling the same tiles again, and made the first screen's images wait
 * behind those of rows no one sees yet.
 */
const OVERSCAN_ROWS = 1;

function ReviewGrid({ items }: { items: ReviewItemView[] }) {
  const { activeId, selected, saving } = useReview();
  const scroller = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  // Measured before the first paint, then as the window changes: the grid once drew its first frame in four
  // columns whatever its width, and ↑ and ↓ stepped by four until the observer's first answer.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const measured = Math.max(1, Math.floor(element.clientWidth / TILE_WIDTH));
      setColumns(measured);
      // What ↑ and ↓ step by: the columns the rows are laid out in.
      useReviewLayout.setState({ gridColumns: measured });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rows = useVirtualizer({
    count: Math.ceil(items.length / columns),
    getScrollElement: () => scroller.current,
    estimateSize: () => TILE_HEIGHT,
    overscan: OVERSCAN_ROWS,
    useFlushSync: false,
  });
  const skimming = useSkimming(rows.scrollOffset ?? 0, rows.isScrolling);
  const activeIndex = items.findIndex((item) => item.id === activeId);
  useEffect(() => {
    if (activeIndex >= 0) rows.scrollToIndex(Math.floor(activeIndex / columns), { align: 'auto' });
  }, [activeIndex, columns, rows]);
  const virtualRows = rows.getVirtualItems();
  const slots = useSlots(virtualRows.map((row) => row.index));
  return (
    <div className="review-grid" ref={scroller} data-testid="review-grid">
      <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {virtualRows.map((row) => (
          <div
            key={slots.get(row.index)}
            className="review-row"
            style={{ transform: `translateY(${row.start}px)`, height: TILE_HEIGHT }}
          >
            {items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
              <Tile
                // By column: the tile's element is refilled with the row's new result (see useSlots).
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is what is meant here.
                key={column}
                item={item}
                active={item.id === activeId}
                selected={selected.has(item.id)}
                saving={saving.has(item.id)}
                skimming={skimming}
                onPick={pickTile}
              />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * A result's screen preview, shown with the element that preloaded it when there is one (review/preload.ts):
 * the next result in the loupe is on screen in the frame after the key, already decoded, not fetched and
 * decoded again.
 */
function ShownImage({ url, alt, transform }: { url: string; alt: string; transform: string }) {
  const box = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const holder = box.current;
    if (!holder) return;
    let shown = holder.firstElementChild as HTMLImageElement | null;
    if (shown?.getAttribute('src') !== url) {
      const held = imageFor(url);
      // The same image in two panes (two results of the same bytes): the second gets an element of its own.
      shown = held.isConnected ? new Image() : held;
      if (shown !== held) shown.src = url;
      shown.className = 'pane-media';
      shown.draggable = false;
      holder.replaceChildren(shown);
    }
    shown.alt = alt;
    shown.style.transform = transform;
  }, [url, alt, transform]);
  return <span className="pane-image" ref={box} />;
}

/** A result at the shared zoom and pan: every pane applies the same transform, so they stay locked. */
function Zoomed({ item, label }: { item: ReviewItemView; label?: string }) {
  const view = useReview((state) => state.view);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const transform = `scale(${view.zoom}) translate(${view.x}%, ${view.y}%)`;
  return (
    <div
      className="pane-stage"
      onPointerDown={(event) => {
        drag.current = { x: event.clientX, y: event.clientY };
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (!drag.current) return;
        const box = event.currentTarget.getBoundingClientRect();
        useReview
          .getState()
          .panBy(
            ((event.clientX - drag.current.x) / box.width) * 50,
            ((event.clientY - drag.current.y) / box.height) * 50,
          );
        drag.current = { x: event.clientX, y: event.clientY };
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
    >
      {item.kind === 'video' ? (
        // biome-ignore lint/a11y/useMediaCaption: the service's videos have no speech to caption.
        <video className="pane-media" src={item.url} controls loop aria-label={label ?? itemName(item)} />
      ) : (
        <ShownImage url={item.screenUrl ?? item.url} alt={label ?? itemName(item)} transform={transform} />
      )}
    </div>
  );
}

function ItemInfo({ item }: { item: ReviewItemView }) {
  return (
    <span className="pane-info">
      <strong>{itemName(item)}</strong>
      <BatchOf item={item} />
      <LabelMark label={item.label} />
      <FlagBadge item={item} />
      <Stars count={item.stars} />
    </span>
  );
}

function Loupe({ item, position, total }: { item: ReviewItemView; position: number; total: number }) {
  const zoom = useReview((state) => state.view.zoom);
  return (
    <div className="loupe" data-testid="loupe">
      {item.kind === 'video' ? (
        <LoupeVideo key={item.id} item={item} label={itemName(item)} />
      ) : (
        <Zoomed item={item} />
      )}
      <div className="loupe-info">
        <strong>{itemName(item)}</strong>
        <span>
          {position} of {total}
        </span>
        <BatchOf item={item} />
        <LabelMark label={item.label} />
        <FlagBadge item={item} />
        <Stars count={item.stars} />
        <span className="muted">{zoom === 1 ? 'Fit' : '2x: drag or Shift+arrows to pan'}</span>
        {item.kind === 'shot' && <FocusPicker key={item.id} item={item} />}
        <small className="muted">{item.file}</small>
      </div>
    </div>
  );
}

/** A pointer's place on an element, as fractions of its width and height, kept inside it. */
function fractionAt(event: PointerEvent<HTMLElement>): { x: number; y: number } {
  const box = event.currentTarget.getBoundingClientRect();
  const inside = (value: number) => Math.round(Math.max(0, Math.min(1, value)) * 1000) / 1000;
  return {
    x: inside((event.clientX - box.left) / box.width),
    y: inside((event.clientY - box.top) / box.height),
  };
}

/**
 * The loupe's focus point (issue 29, point 5): the result small beside it, its subject marked where the
 * designer put it; a click or a drag moves the mark, saved when the pointer lets go (one write per move),
 * and Shift+F clears it. Beside the big image rather than on it, where a drag already pans the zoomed view.
 */
function FocusPicker({ item }: { item: ReviewItemView }) {
  const [moving, setMoving] = useState<{ x: number; y: number } | null>(null);
  const shown = moving ?? item.focus;
  return (
    <div className="focus-picker">
      <small className="muted">
        {item.focus
          ? 'Crops centre on the mark: click or drag to move it, Shift+F to clear it.'
          : 'Crops find the subject: click where it is to centre them there.'}
      </small>
      <div
        className="focus-frame"
        data-testid="focus-frame"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          setMoving(fractionAt(event));
        }}
        onPointerMove={(event) => {
          if (moving) setMoving(fractionAt(event));
        }}
        onPointerUp={(event) => {
          const at = fractionAt(event);
          setMoving(null);
          void useReview.getState().setFocus(at);
        }}
      >
        <img className="focus-image" src={item.gridUrl ?? item.url} alt="" draggable={false} />
        {shown && (
          <span
            className="focus-mark"
            data-testid="focus-mark"
            style={{ left: `${shown.x * 100}%`, top: `${shown.y * 100}%` }}
          />
        )}
      </div>
    </div>
  );
}

/** Compare and survey: results side by side, one active pane that takes the keys. */
function Panes({ items, testId }: { items: ReviewItemView[]; testId: string }) {
  const activeId = useReview((state) => state.activeId);
  const panes = useRef<HTMLDivElement>(null);
  const fitted = useFittedPanes(panes, items.length);
  return (
    <div className="panes panes-fitted" data-testid={testId} ref={panes} style={fitted}>
      {items.map((item) => (
        <section
          key={item.id}
          className={`pane${item.id === activeId ? ' pane-active' : ''}`}
          aria-label={itemName(item)}
          aria-current={item.id === activeId ? 'true' : undefined}
          onPointerDown={() => useReview.getState().activate(item.id)}
        >
          <Zoomed item={item} />
          <ItemInfo item={item} />
        </section>
      ))}
    </div>
  );
}

/** The result against its product's source photo, divided where the wipe is: logo, colour and shape. */
function Wipe({ item }: { item: ReviewItemView }) {
  const { wipe, moveWipe } = useReview();
  if (!item.sourceUrl || item.kind === 'video') {
    return (
      <EmptyState title="No source photo to compare">
        {<p>A wipe compares a shot with its photo.</p>}
      </EmptyState>
    );
  }
  return (
    <div className="wipe" data-testid="wipe">
      <div className="wipe-stage">
        <img
          className="wipe-layer"
          src={item.sourceUrl}
          alt={`${item.productName}, as sent to the service`}
        />
        <img
          className="wipe-layer"
          src={item.screenUrl ?? item.url}
          alt={itemName(item)}
          style={{ clipPath: `inset(0 ${100 - wipe}% 0 0)` }}
        />
        <span className="wipe-line" style={{ left: `${wipe}%` }} />
      </div>
      <label className="wipe-control">
        Result ← → source
        <input
          type="range"
          min={0}
          max={100}
          value={wipe}
          onChange={(event) => moveWipe(Number(event.target.value) - wipe)}
        />
      </label>
      <ItemInfo item={item} />
    </div>
  );
}

function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <ModalSheet
      labelledBy="sheet-title"
      onClose={onClose}
      // The key that opened it closes it too.
      onKeyDown={(event) => {
        if (event.key !== '?') return;
        event.preventDefault();
        onClose();
      }}
    >
      {/* Close first: the sheet opens with the keyboard on it, and a long sheet would scroll to a last one. */}
      <div className="sheet-head">
        <h2 id="sheet-title">Review keys</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <table>
        <tbody>
          {REVIEW_KEYMAP.map((binding, at) => (
            <Fragment key={binding.label}>
              {binding.when === 'video' && REVIEW_KEYMAP[at - 1]?.when !== 'video' && (
                <tr>
                  <th colSpan={2} scope="colgroup">
                    A video in the loupe (these keys act only while one is on screen)
                  </th>
                </tr>
              )}
              <tr>
                <td>
                  {binding.keys.map((key) => (
                    <kbd key={key}>{keyLabel(key)}</kbd>
                  ))}
                </td>
                <td>{binding.label}</td>
              </tr>
            </Fragment>
          ))}
        </tbody>
      </table>
    </ModalSheet>
  );
}

function Filters() {
  const { filter, counts, setFilter } = useReview();
  if (!counts) return null;
  const update = (change: Partial<ReviewFilter>) => {
    const next: ReviewFilter = { ...filter, ...change };
    for (const key of Object.keys(next) as Array<keyof ReviewFilter>)
      if (next[key] === undefined) delete next[key];
    setFilter(next);
  };
  return (
    <fieldset className="review-filters">
      <legend className="visually-hidden">Filters</legend>
      <label className="review-filter">
        Flag
        <select
          value={filter.flag ?? ''}
          onChange={(event) => update({ flag: (event.target.value || undefined) as ReviewFilter['flag'] })}
        >
          <option value="">Any ({counts.total})</option>
          <option value="picked">Picked ({counts.picked})</option>
          <option value="rejected">Rejected ({counts.rejected})</option>
          <option value="none">No flag ({counts.unflagged})</option>
        </select>
      </label>
      <label className="review-filter">
        Stars
        <select
          value={filter.minStars ?? 0}
          onChange={(event) => update({ minStars: Number(event.target.value) || undefined })}
        >
          {[0, 1, 2, 3, 4, 5].map((stars) => (
            <option key={stars} value={stars}>
              {stars === 0 ? `Any (${counts.atLeastStars[0]})` : `${stars}+ (${counts.atLeastStars[stars]})`}
            </option>
          ))}
        </select>
      </label>
      <LabelFilter filter={filter} counts={counts} update={update} />
      <label className="review-filter">
        Reviewed
        <select
          value={filter.reviewed === undefined ? '' : String(filter.reviewed)}
          onChange={(event) =>
            update({ reviewed: event.target.value === '' ? undefined : event.target.value === 'true' })
          }
        >
          <option value="">Any</option>
          <option value="false">Not yet ({counts.total - counts.reviewed})</option>
          <option value="true">Reviewed ({counts.reviewed})</option>
        </select>
      </label>
      <label className="review-filter">
        Product
        <input
          type="search"
          value={filter.product ?? ''}
          onChange={(event) => update({ product: event.target.value || undefined })}
          placeholder="Name"
        />
      </label>
    </fieldset>
  );
}

function perform(action: ReviewAction, openSheet: () => void): void {
  const review = useReview.getState();
  switch (action.type) {
    case 'decide':
      void review.decide(action.change);
      return;
    case 'keep':
      void review.keep();
      return;
    case 'move':
      review.move(action.by);
      return;
    case 'move-row':
      moveVertically(action.by);
      return;
    case 'mode':
      review.setMode(action.mode);
      return;
    case 'zoom':
      review.toggleZoom();
      return;
    case 'pan':
      review.panBy(action.dx, action.dy);
      return;
    case 'wipe':
      review.moveWipe(action.by);
      return;
    case 'select-toggle':
      if (review.mode === 'grid') review.toggleSelected();
      return;
    case 'select-all':
      if (review.mode === 'grid') review.selectAll();
      return;
    case 'auto-advance':
      review.toggleAutoAdvance();
      return;
    case 'undo':
      void review.undo();
      return;
    case 'redo':
      void review.redo();
      return;
    case 'sheet':
      openSheet();
      return;
    case 'video':
      videoOnScreen()?.run(action.command);
      return;
    case 'product-scope':
      toggleProductScope();
      return;
    case 'focus-reset':
      if (review.mode === 'loupe') void review.setFocus(null);
      return;
  }
}

/** Which way the active result last moved through the list: 1 forward (at first), -1 back. */
function useHeading(activeIndex: number): 1 | -1 {
  const last = useRef({ index: activeIndex, heading: 1 as 1 | -1 });
  if (activeIndex !== last.current.index) {
    last.current = {
      index: activeIndex,
      heading: activeIndex < last.current.index ? -1 : 1,
    };
  }
  return last.current.heading;
}

export function ReviewScreen({
  batchId,
  batchName,
  scope,
  focus,
}: {
  batchId: string;
  batchName: string;
  /** One product across batches, opened from this batch's review; absent: the batch's own. */
  scope?: ReviewScope;
  focus?: number;
}) {
  const review = useReview();
  const go = useNavigation((state) => state.go);
  const [sheet, setSheet] = useState(false);
  const [making, setMaking] = useState(false);

  const product = scope?.product;
  // Asked for as the screen is put in the page, not after the browser has drawn it empty: core works on the
  // first page meanwhile.
  // Without a result to open on, the one this batch (or product) was left on, even after a reload.
  useLayoutEffect(() => {
    const opened = product === undefined ? { batchId } : { product };
    void useReview.getState().load(opened, focus ?? rememberedResult(opened));
  }, [batchId, product, focus]);
  useRememberedPosition();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest('input, select, textarea') !== null && target !== null;
      // A sheet over the results (keys, Make videos, Reshoot) keeps its keys (components/ModalSheet.tsx); one
      // pressed while the keyboard is nowhere (a click on its backdrop) is not for the results behind either.
      if (document.querySelector('dialog:modal')) return;
      if (typing) {
        // Escape leaves a filter field, back to the results, so the keys act on them again.
        if (event.key === 'Escape') (target as HTMLElement).blur();
        return;
      }
      const binding = bindingOf(event, {
        video: useReview.getState().mode === 'loupe' && videoOnScreen() !== null,
      });
      if (!binding) return;
      // Enter and Space on a focused button keep their own meaning: a toolbar's button the keyboard reached
      // by Tab. A result's tile (grid, filmstrip) is out of the Tab order and takes the focus only from a
      // click: there the keys are the results' (Space selects the one the arrows went to since, not the one
      // clicked, as it once did).
      const button = target?.closest('button');
      if ((event.key === 'Enter' || event.key === ' ') && button && button.tabIndex >= 0) return;
      event.preventDefault();
      perform(binding.action, () => setSheet(true));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const visible = useVisibleItems();
  const activeIndex = visible.findIndex((item) => item.id === review.activeId);
  const active = visible[activeIndex] ?? null;
  const heading = useHeading(activeIndex);
  // Two ahead in the direction of travel, one behind: the next is ready even after a quick double step.
  usePreloaded(
    review.mode === 'loupe'
      ? [
          visible[activeIndex + heading]?.screenUrl,
          visible[activeIndex + 2 * heading]?.screenUrl,
          visible[activeIndex - heading]?.screenUrl,
        ]
      : [],
  );
  const { counts } = review;
  return (
    <section className="screen review" aria-labelledby="review-title">
      <header className="screen-header">
        {product === undefined ? (
          <button type="button" className="link" onClick={() => go({ name: 'batch', id: batchId })}>
            ← {batchName}
          </button>
        ) : (
          <button
            type="button"
            className="link"
            onClick={() => go({ name: 'review', batchId, batchName, focus: active?.id })}
          >
            ← Review of {batchName}
          </button>
        )}
        <h1 id="review-title">{product === undefined ? 'Review' : 'Review of a product in all batches'}</h1>
        {product === undefined && review.brandName && (
          <span className="tag" data-testid="review-brand">
            for {review.brandName}
          </span>
        )}
        {counts && (
          <p className="review-progress" role="status">
            {counts.reviewed} of {counts.total} reviewed · {counts.picked} picked · {counts.rejected} rejected
          </p>
        )}
      </header>
      {review.product && product !== undefined && <ProductSummary product={review.product} />}
      <div className="review-toolbar">
        <Filters />
        <SortControl />
        <div className="review-controls">
          <label className="check">
            <input type="checkbox" checked={review.autoAdvance} onChange={() => review.toggleAutoAdvance()} />
            Auto-advance
          </label>
          <fieldset className="segmented">
            <legend className="visually-hidden">View</legend>
            {MODES.map(({ mode, label }) => (
              <button
                key={mode}
                type="button"
                aria-pressed={review.mode === mode}
                onClick={() => review.setMode(mode)}
              >
                {label}
              </button>
            ))}
          </fieldset>
          <button type="button" disabled={!review.canUndo} onClick={() => void review.undo()}>
            Undo
          </button>
          <button type="button" disabled={!review.canRedo} onClick={() => void review.redo()}>
            Redo
          </button>
          {/* The actions and the keys' "?" wrap as one group, so "?" never sits alone on a row. */}
          <div className="review-actions">
            {/* Videos are made per batch, from its picks: from the batch's review. */}
            {product === undefined && (
              <button type="button" disabled={!counts?.picked} onClick={() => setMaking(true)}>
                Make videos…
              </button>
            )}
            <ReviewExportButton active={active} />
            <DragOutChoice />
            <button type="button" disabled={!active} onClick={toggleProductScope}>
              {product === undefined ? 'This product in all batches' : "This result's batch"}
            </button>
            {/* A reshoot joins a batch: from the batch's review too. */}
            {product === undefined && (
              <ReshootButton
                batchId={batchId}
                items={review.items}
                onMade={() => go({ name: 'batch', id: batchId })}
              />
            )}
            <button type="button" onClick={() => setSheet(true)} aria-label="Keyboard shortcuts">
              ?
            </button>
          </div>
        </div>
      </div>
      {review.mode === 'grid' && review.selected.size > 0 && (
        <p className="review-selection" role="status">
          {review.selected.size} selected: keys act on all of them
        </p>
      )}
      {review.error && <Notice kind="error">{review.error}</Notice>}
      {counts && visible.length === 0 ? (
        <EmptyState title={counts.total === 0 ? 'Nothing to review yet' : 'Nothing matches the filter'}>
          <p>
            {counts.total === 0
              ? 'Results appear here as they are downloaded.'
              : 'Change the filter to see more results.'}
          </p>
        </EmptyState>
      ) : review.mode === 'loupe' && active ? (
        <>
          <Loupe item={active} position={activeIndex + 1} total={visible.length} />
          <Filmstrip items={visible} name={itemName} />
        </>
      ) : (review.mode === 'compare' || review.mode === 'survey') && active ? (
        <>
          {review.mode === 'compare' && review.selected.size < 2 && panesOf(visible, review).length < 2 && (
            <Notice kind="info">
              {active.productName} has no other {active.kind} to compare with: compare stays within a product
              (select results with Space to compare across products).
            </Notice>
          )}
          <Panes items={panesOf(visible, review)} testId={review.mode} />
        </>
      ) : review.mode === 'wipe' && active ? (
        <Wipe item={active} />
      ) : (
        <ReviewGrid items={visible} />
      )}
      {sheet && <ShortcutSheet onClose={() => setSheet(false)} />}
      {making && (
        <MakeVideosDialog
          batchId={batchId}
          onClose={() => setMaking(false)}
          onMade={() => go({ name: 'batch', id: batchId })}
        />
      )}
    </section>
  );
}
