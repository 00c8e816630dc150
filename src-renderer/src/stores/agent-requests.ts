import { create } from 'zustand';
import type { AgentAllowanceView, AgentRequestView } from '../../../src-main/shared/models.ts';
import { api, failureOf, messageOf } from '../api/index.ts';

// Agents' requests to spend (issue 16): what they asked, a person's yes or no, and the allowance under which
// agents need not ask. Reloaded whenever a request is made or decided, in this window or anywhere else.

interface AgentRequestsState {
  requests: AgentRequestView[];
  allowance: AgentAllowanceView | null;
  loaded: boolean;
  error: string | null;
  /** The newest pending request this window has not shown in its banner yet, by id. */
  announced: string | null;
  load(): Promise<void>;
  /** Resolves to the error in words, or null once decided (expired counts as decided: it says why). */
  approve(id: string): Promise<string | null>;
  decline(id: string, reason: string): Promise<string | null>;
  setAllowance(brandId: string | null, credits: number | null): Promise<string | null>;
  dismissAnnouncement(): void;
}

export const useAgentRequests = create<AgentRequestsState>((set, get) => ({
  requests: [],
  allowance: null,
  loaded: false,
  error: null,
  announced: null,
  async load() {
    try {
      const [requests, allowance] = await Promise.all([
        api.call('agents:requests'),
        api.call('agents:allowance'),
      ]);
      set({ requests, allowance, loaded: true, error: null });
    } catch (error) {
      set({ error: messageOf(error), loaded: true });
    }
  },
  // A decision is announced (`agents:changed`), which reloads the list; a refused one (decided elsewhere
  // meanwhile) is not, so the list is read again to show how it was decided.
  async approve(id) {
    const failure = await failureOf(() => api.call('agents:approve', { id }));
    if (failure) await get().load();
    return failure;
  },
  async decline(id, reason) {
    const failure = await failureOf(() =>
      api.call('agents:decline', { id, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
    );
    if (failure) await get().load();
    return failure;
  },
  setAllowance: (brandId, credits) =>
    failureOf(async () => set({ allowance: await api.call('agents:setAllowance', { brandId, credits }) })),
  dismissAnnouncement: () => set({ announced: null }),
}));

export const pendingCount = (requests: AgentRequestView[]) =>
  requests.filter((request) => request.state === 'pending').length;

api.on('agents:changed', ({ id, state }) => {
  if (state === 'pending') useAgentRequests.setState({ announced: id });
  void useAgentRequests.getState().load();
});
