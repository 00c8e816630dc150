import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useRef } from 'react';

/**
 * A long list that renders only the rows in view: thousands of products stay smooth to scroll. Rows are
 * `rowHeight` tall; `measured` rows are as tall as their content (rowHeight is then only the first guess),
 * measured as they render and whenever they change size, so a row that grows never runs over the next.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  measured = false,
  label,
  render,
  className,
  testId,
}: {
  items: readonly T[];
  rowHeight: number;
  measured?: boolean;
  label: string;
  render: (item: T, index: number) => ReactNode;
  className?: string;
  testId?: string;
}) {
  const scroller = useRef<HTMLElement>(null);
  const rows = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 6,
    // Rows follow the scroll in React's own time instead of a synchronous render per scroll event.
    useFlushSync: false,
  });
  return (
    <section
      className={`virtual-list ${className ?? ''}`}
      ref={scroller}
      aria-label={label}
      data-testid={testId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus to be scrolled without a mouse (WCAG 2.1.1).
      tabIndex={0}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: a virtualised list keeps only the rows in view; role=list with aria-setsize keeps it a list to assistive tech. */}
      <div role="list" style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {rows.getVirtualItems().map((row) => (
          // biome-ignore lint/a11y/useSemanticElements: see above.
          <div
            key={row.key}
            role="listitem"
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            className={measured ? 'virtual-row measured' : 'virtual-row'}
            data-index={row.index}
            ref={measured ? rows.measureElement : undefined}
            style={{ transform: `translateY(${row.start}px)`, ...(measured ? {} : { height: rowHeight }) }}
          >
            {render(items[row.index]!, row.index)}
          </div>
        ))}
      </div>
    </section>
  );
}
