import { create } from 'zustand';
import type { PhotoStorageInput, PhotoStorageView } from '../../../src-main/shared/models.ts';
import { api, failureOf, messageOf } from '../api/index.ts';

interface StorageState {
  storage: PhotoStorageView | null;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  /** Resolves to the error message, or null once the storage was checked and saved. */
  save(input: PhotoStorageInput): Promise<string | null>;
  clear(): Promise<void>;
}

export const useStorage = create<StorageState>((set) => ({
  storage: null,
  loaded: false,
  error: null,
  async load() {
    try {
      set({ storage: await api.call('storage:get'), loaded: true, error: null });
    } catch (error) {
      set({ error: messageOf(error), loaded: true });
    }
  },
  save: (input) => failureOf(async () => set({ storage: await api.call('storage:set', input), error: null })),
  async clear() {
    try {
      await api.call('storage:clear');
      set({ storage: null, error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
}));
