import { create } from 'zustand';

export type Screen =
  | { name: 'batches' }
  | { name: 'new' }
  | { name: 'batch'; id: string }
  | { name: 'review'; batchId: string; batchName: string }
  | { name: 'settings' };

interface NavigationState {
  screen: Screen;
  go(screen: Screen): void;
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: { name: 'batches' },
  go: (screen) => set({ screen }),
}));
