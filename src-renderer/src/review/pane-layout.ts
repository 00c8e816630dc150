// Survey and compare lay their panes out to fit the space they have, with no scrolling: the columns and rows
// that give each result the largest picture (Lightroom's survey shrinks every photo until all selected fit).

export interface PaneGrid {
  columns: number;
  rows: number;
  /** Each pane's box, in px. */
  width: number;
  height: number;
}

export interface PaneSpace {
  /** The panes' area, in px. */
  width: number;
  height: number;
  /** Between panes. */
  gap: number;
  /** Within a pane, around the picture and for its caption: taken from its height (and `sides` from its width). */
  caption: number;
  sides: number;
  /** Of the pictures, width over height (1: square, as the service's shots mostly are). */
  aspect: number;
}

/** The grid of `count` panes in `space` whose pictures are largest; the fewest rows among equals. */
export function paneGrid(count: number, space: PaneSpace): PaneGrid {
  const panes = Math.max(1, count);
  let best: PaneGrid & { area: number } = { columns: 1, rows: panes, width: 0, height: 0, area: -1 };
  for (let columns = 1; columns <= panes; columns++) {
    const rows = Math.ceil(panes / columns);
    const width = Math.floor((space.width - space.gap * (columns - 1)) / columns);
    const height = Math.floor((space.height - space.gap * (rows - 1)) / rows);
    // The picture fits the pane's room at its aspect.
    const roomWidth = Math.max(0, width - space.sides);
    const roomHeight = Math.max(0, height - space.caption);
    const pictureWidth = Math.min(roomWidth, roomHeight * space.aspect);
    const area = pictureWidth * (pictureWidth / space.aspect);
    if (area > best.area) best = { columns, rows, width, height, area };
  }
  return { columns: best.columns, rows: best.rows, width: best.width, height: best.height };
}
