import { create } from 'zustand';
import type { ReviewScope, UsageOwner, UsagePeriod } from '../../../src-main/shared/models.ts';

export type Screen =
  | { name: 'batches' }
  | { name: 'new' }
  | { name: 'batch'; id: string }
  /**
   * A batch's review; with a `scope` naming a product, that product across every batch that shot it, opened
   * from the batch's review (where its back link returns) on the result `focus`.
   */
  | { name: 'review'; batchId: string; batchName: string; scope?: ReviewScope; focus?: number }
  | { name: 'settings' }
  | { name: 'usage' }
  | { name: 'requests' }
  /** A client's statement for a period, opened from Usage (where its back link returns). */
  | { name: 'statement'; owner: UsageOwner; period: UsagePeriod };

interface NavigationState {
  screen: Screen;
  go(screen: Screen): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: { name: 'batches' },
  go: (screen) => set({ screen }),
}));
