import { create } from 'zustand';

// How many columns Review's views are laid out in, as they measured their own space: what ↑ and ↓ step by.
// The grid publishes its columns from its width; survey and compare theirs from the pane grid that fits.

interface ReviewLayout {
  gridColumns: number;
  paneColumns: number;
}

export const useReviewLayout = create<ReviewLayout>(() => ({ gridColumns: 1, paneColumns: 1 }));
