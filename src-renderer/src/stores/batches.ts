import { create } from 'zustand';
import type { BatchListItem, BatchProgress } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';

interface BatchesState {
  batches: BatchListItem[];
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  applyProgress(progress: BatchProgress): void;
}

export const useBatches = create<BatchesState>((set) => ({
  batches: [],
  loaded: false,
  error: null,
  async load() {
    try {
      set({ batches: await api.call('batches:list'), loaded: true, error: null });
    } catch (error) {
      set({ error: messageOf(error), loaded: true });
    }
  },
  applyProgress(progress) {
    set((state) => ({
      batches: state.batches.map((batch) => (batch.id === progress.id ? { ...batch, ...progress } : batch)),
    }));
  },
}));

api.on('batches:progress', (progress) => useBatches.getState().applyProgress(progress));
api.on('batches:changed', () => void useBatches.getState().load());
