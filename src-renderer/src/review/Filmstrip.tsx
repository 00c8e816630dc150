import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { useReview } from '../stores/review.ts';

// The strip of thumbnails under the loupe, as Lightroom's filmstrip: every result the filter shows, in the
// sort's order, the one on screen marked and kept in view; a click puts another in the loupe. Drawn only
// where it shows (a batch may hold 8,000 results).

const THUMB_WIDTH = 84;

export function Filmstrip({
  items,
  name,
}: {
  items: readonly ReviewItemView[];
  name: (item: ReviewItemView) => string;
}) {
  const activeId = useReview((state) => state.activeId);
  const strip = useRef<HTMLDivElement>(null);
  const thumbs = useVirtualizer({
    count: items.length,
    horizontal: true,
    getScrollElement: () => strip.current,
    estimateSize: () => THUMB_WIDTH,
    overscan: 4,
    useFlushSync: false,
  });
  const activeIndex = items.findIndex((item) => item.id === activeId);
  useEffect(() => {
    if (activeIndex >= 0) thumbs.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, thumbs]);
  return (
    <nav className="filmstrip" ref={strip} aria-label="Filmstrip" data-testid="filmstrip">
      <div className="filmstrip-track" style={{ width: thumbs.getTotalSize() }}>
        {thumbs.getVirtualItems().map((slot) => {
          const item = items[slot.index];
          if (!item) return null;
          const current = item.id === activeId;
          // A video without its thumbnail has no picture to show here (its file is no image).
          const src = item.gridUrl ?? (item.kind === 'video' ? null : item.url);
          return (
            <button
              key={item.id}
              type="button"
              className={`filmstrip-thumb${current ? ' filmstrip-current' : ''} tile-${item.flag ?? 'none'}`}
              style={{ transform: `translateX(${slot.start}px)` }}
              aria-current={current ? 'true' : undefined}
              aria-label={name(item)}
              tabIndex={-1}
              onClick={() => useReview.getState().activate(item.id)}
            >
              {src ? (
                <img className="filmstrip-image" src={src} alt="" decoding="async" draggable={false} />
              ) : (
                <span aria-hidden="true">▶</span>
              )}
            </button>
          );
        })}
      </div>
    </nav>
  );
}
