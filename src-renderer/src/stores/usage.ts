import { create } from 'zustand';
import type { ReconciliationView, UsagePeriod, UsageView } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { type PeriodChoice, periodOf } from '../screens/usage/period.ts';

// The Usage view (issue 15, point 6): the period chosen, the ledger's usage in it, and the last check of it
// against the service's usage report. Answers to an older period are dropped when a newer one was asked for.

interface UsageState {
  choice: PeriodChoice;
  period: UsagePeriod | null;
  /** Why the custom period chosen is no period, in words. */
  periodError: string | null;
  view: UsageView | null;
  loading: boolean;
  error: string | null;
  reconciliation: ReconciliationView | null;
  checking: boolean;
  checkError: string | null;
  choose(choice: PeriodChoice): Promise<void>;
  load(): Promise<void>;
  check(): Promise<void>;
}

let asked = 0;

export const useUsage = create<UsageState>((set, get) => ({
  choice: { kind: 'this-month' },
  period: null,
  periodError: null,
  view: null,
  loading: false,
  error: null,
  reconciliation: null,
  checking: false,
  checkError: null,
  async choose(choice) {
    const period = periodOf(choice, Date.now());
    if (typeof period === 'string') {
      set({ choice, periodError: period });
      return;
    }
    set({ choice, period, periodError: null, reconciliation: null, checkError: null });
    await get().load();
  },
  async load() {
    const period = get().period ?? periodOf(get().choice, Date.now());
    if (typeof period === 'string') return;
    const request = ++asked;
    set({ period, loading: true });
    try {
      const view = await api.call('usage:get', period);
      if (request === asked) set({ view, error: null });
    } catch (error) {
      if (request === asked) set({ error: messageOf(error) });
    } finally {
      if (request === asked) set({ loading: false });
    }
  },
  async check() {
    const period = get().period;
    if (!period) return;
    const request = asked;
    set({ checking: true, checkError: null });
    try {
      const reconciliation = await api.call('usage:reconcile', period);
      if (request === asked) set({ reconciliation });
      // A check resolves creates whose outcome was unknown: the ledger's figures may have moved.
      await get().load();
    } catch (error) {
      if (request === asked) set({ checkError: messageOf(error) });
    } finally {
      set({ checking: false });
    }
  },
}));
