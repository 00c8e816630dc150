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

export const useSettings = create<SettingsState>((set, get) => ({
  settings: null,
  error: null,
  async load() {
    try {
      set({ settings: await api.call('settings:get'), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  // Shown at once, as a tick or a typed value is (a controlled checkbox that waited for core's answer would
  // not move under the click); put back as core has it when core refuses.
  async save(patch) {
    const before = get().settings;
    if (before) set({ settings: { ...before, ...patch } });
    try {
      set({ settings: await api.call('settings:set', patch) });
      return null;
    } catch (error) {
      set({ settings: before });
      return messageOf(error);
    }
  },
}));
