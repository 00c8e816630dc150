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

/**
 * Saves asked so far. Each answer is the whole settings as core has them after that save: one that comes
 * after a later save was asked would take back the later change on screen (a box ticked twice quickly
 * showed the first tick again), so only the latest save's answer is shown; core answers in order, so it
 * carries the earlier ones.
 */
let saves = 0;

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
    const save = ++saves;
    if (before) set({ settings: { ...before, ...patch } });
    try {
      const saved = await api.call('settings:set', patch);
      if (save === saves) set({ settings: saved });
      return null;
    } catch (error) {
      if (save === saves) set({ settings: before });
      return messageOf(error);
    }
  },
}));
