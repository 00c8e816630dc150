import { create } from 'zustand';
import type { QueueOwnerView } from '../../../src-main/shared/models.ts';
import { api } from '../api/index.ts';

// Whether this window's Adbatch drives the batches, or another process does (`adbatch run` in a terminal):
// then the app shows what happens and takes over by itself when that process ends.

interface QueueOwnerState {
  owner: QueueOwnerView | null;
  load(): Promise<void>;
}

export const useQueueOwner = create<QueueOwnerState>((set) => {
  api.on('queue:owner', (owner) => set({ owner }));
  return {
    owner: null,
    async load() {
      // Unanswered, the notice stays hidden until the next queue:owner event.
      const info = await api.call('app:info').catch(() => null);
      if (info) set({ owner: info.queue });
    },
  };
});
