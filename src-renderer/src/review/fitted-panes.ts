import { type CSSProperties, type RefObject, useLayoutEffect, useState } from 'react';
import { useReviewLayout } from './layout.ts';
import { type PaneGrid, paneGrid } from './pane-layout.ts';

// Survey's and compare's panes, sized to the room left below the toolbar to the window's bottom edge, so
// that every result shows whole without scrolling (review/pane-layout.ts works the grid out).

/** Between panes, within one (border, padding) and under its picture (the caption line): as styles.css. */
const GAP = 12;
const SIDES = 12;
const CAPTION = 44;
/** The screen's padding under the panes. */
const BOTTOM = 20;

/** The fitted grid's style for the panes' element, and its columns published for ↑ and ↓. */
export function useFittedPanes(panes: RefObject<HTMLElement | null>, count: number): CSSProperties {
  const [grid, setGrid] = useState<PaneGrid | null>(null);
  useLayoutEffect(() => {
    const element = panes.current;
    if (!element) return;
    const measure = () => {
      const top = element.getBoundingClientRect().top;
      const next = paneGrid(count, {
        width: element.clientWidth,
        height: Math.max(160, window.innerHeight - top - BOTTOM),
        gap: GAP,
        caption: CAPTION,
        sides: SIDES,
        aspect: 1,
      });
      setGrid(next);
      useReviewLayout.setState({ paneColumns: next.columns });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [panes, count]);
  if (!grid) return {};
  return {
    gridTemplateColumns: `repeat(${grid.columns}, ${grid.width}px)`,
    gridAutoRows: `${grid.height}px`,
    ['--pane-stage-height' as string]: `${grid.height - CAPTION}px`,
  };
}
