import type { Page } from 'playwright-core';

// Review's grid as the culling tests read it: the tile the keys are on, and the columns the layout shows.

export const reviewGrid = (page: Page) => page.getByTestId('review-grid');

/** The caption of the tile the keyboard is on. */
export const activeTileIn = (page: Page) =>
  reviewGrid(page).locator('[aria-current="true"] .tile-caption').textContent();

/** The grid's columns as laid out: the tiles on the first tile's line. */
export function measuredColumns(page: Page): Promise<number> {
  return reviewGrid(page)
    .locator('.tile')
    .evaluateAll((tiles) => {
      const top = Math.min(...tiles.map((tile) => tile.getBoundingClientRect().top));
      return tiles.filter((tile) => Math.abs(tile.getBoundingClientRect().top - top) < 1).length;
    });
}
