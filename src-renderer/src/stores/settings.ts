import { create } from 'zustand';
import type { Settings } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';

interface SettingsState {
  settings: Settings | null;
  error: string | null;
  load(): Promise<void>;
  /** Resolves to the refusal in words, or null once saved. */
  save(patch: Partial<Settings>): Promise<string | null>;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  error: null,
  async load() {
    try {
      set({ settings: await api.call('settings:get'), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async save(patch) {
    try {
      set({ settings: await api.call('settings:set', patch) });
      return null;
    } catch (error) {
      return messageOf(error);
    }
  },
}));
