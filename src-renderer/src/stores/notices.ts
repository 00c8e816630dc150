import { create } from 'zustand';
import { api } from '../api/index.ts';

// What the engine said about a batch while it ran (`batches:notice`): a cap 80 % used, a charge that differs
// from its price, the check against the service's usage report after the batch. Kept for this session,
// newest first, a few per batch: the batch page shows them until the user dismisses them.

export interface BatchNotice {
  at: number;
  message: string;
}

const KEPT_PER_BATCH = 20;

interface NoticesState {
  byBatch: Record<string, BatchNotice[]>;
  dismiss(batchId: string): void;
}

export const useNotices = create<NoticesState>((set) => ({
  byBatch: {},
  dismiss: (batchId) =>
    set((state) => {
      const { [batchId]: _, ...rest } = state.byBatch;
      return { byBatch: rest };
    }),
}));

api.on('batches:notice', ({ id, message }) => {
  useNotices.setState((state) => ({
    byBatch: {
      ...state.byBatch,
      [id]: [{ at: Date.now(), message }, ...(state.byBatch[id] ?? [])].slice(0, KEPT_PER_BATCH),
    },
  }));
});
