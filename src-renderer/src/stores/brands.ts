import { create } from 'zustand';
import type { AccountView, BrandView } from '../../../src-main/shared/models.ts';
import { api, failureOf, messageOf } from '../api/index.ts';
import { useAccounts } from './accounts.ts';

// The client brands of the agency keys stored here (issue 15, point 1): listed by the service, created from
// Settings, each with its monthly cap; and the brand a key is pinned to, which only the user can say.

/** Where a newly added agency key sees exactly one brand: the pin Settings proposes for it. */
export interface PinProposal {
  accountId: string;
  brandId: string;
  brandName: string;
}

interface BrandsState {
  brands: BrandView[];
  error: string | null;
  proposal: PinProposal | null;
  load(): Promise<void>;
  /** Lists the brands the key sees again; resolves to them, or to null when the service could not be asked. */
  refresh(accountId: string): Promise<BrandView[] | null>;
  /** Resolves to the error in words (the plan's quota refusal among them), or null when it was created. */
  create(accountId: string, name: string): Promise<string | null>;
  /** Resolves to the error in words, or null when the cap was set. */
  setCap(id: string, monthlyCap: number | null): Promise<string | null>;
  /** Resolves to the error in words, or null when the pin was kept. */
  pin(accountId: string, brandId: string | null): Promise<string | null>;
  /** After an agency key is added: its brands listed and, where it sees only one, that one proposed. */
  added(account: AccountView): Promise<void>;
  dismissProposal(): void;
}

export const useBrands = create<BrandsState>((set, get) => ({
  brands: [],
  error: null,
  proposal: null,
  async load() {
    try {
      set({ brands: await api.call('brands:list'), error: null });
    } catch (error) {
      set({ error: messageOf(error) });
    }
  },
  async refresh(accountId) {
    try {
      const seen = await api.call('brands:refresh', { accountId });
      await get().load();
      return seen;
    } catch (error) {
      set({ error: messageOf(error) });
      return null;
    }
  },
  create: (accountId, name) =>
    failureOf(async () => {
      await api.call('brands:create', { accountId, name });
      await get().load();
    }),
  setCap: (id, monthlyCap) =>
    failureOf(async () => {
      await api.call('brands:setCap', { id, monthlyCap });
      await get().load();
    }),
  async pin(accountId, brandId) {
    const failure = await failureOf(() => api.call('accounts:pin', { id: accountId, brandId }));
    if (failure === null && get().proposal?.accountId === accountId) set({ proposal: null });
    await Promise.all([get().load(), useAccounts.getState().load()]);
    return failure;
  },
  async added(account) {
    if (account.type !== 'agency') return;
    const seen = await get().refresh(account.id);
    // A pinned key sees its own brand only; an unpinned one every brand of the agency. One brand seen is
    // likely a pin, but an agency with one brand looks the same: proposed, never assumed.
    const only = seen?.length === 1 ? seen[0] : undefined;
    set({
      proposal:
        only && account.brandId === null
          ? { accountId: account.id, brandId: only.id, brandName: only.name }
          : null,
    });
  },
  dismissProposal: () => set({ proposal: null }),
}));

api.on('accounts:changed', () => void useBrands.getState().load());
