import { create } from 'zustand';
import type { AccountView, NewAccount } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';

interface AccountsState {
  accounts: AccountView[];
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
  /** Resolves to the account added, or to the error message. */
  add(input: NewAccount): Promise<{ account: AccountView } | { error: string }>;
  remove(id: string): Promise<void>;
  refresh(id: string): Promise<void>;
}

export const useAccounts = create<AccountsState>((set, get) => ({
  accounts: [],
  loading: false,
  error: null,
  async load() {
    set({ loading: true });
    try {
      set({ accounts: await api.call('accounts:list'), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    } finally {
      set({ loading: false });
    }
  },
  async add(input) {
    try {
      const account = await api.call('accounts:add', input);
      await get().load();
      return { account };
    } catch (error) {
      return { error: messageOf(error) };
    }
  },
  async remove(id) {
    try {
      await api.call('accounts:remove', { id });
      await get().load();
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async refresh(id) {
    try {
      await api.call('accounts:refresh', { id });
    } catch (error) {
      set({ error: messageOf(error) });
    }
    await get().load();
  },
}));

api.on('accounts:changed', () => void useAccounts.getState().load());
