import { randomBytes } from 'node:crypto';
import type { agentsChannels } from '../../shared/contract/agents.ts';
import type {
  AgentAllowanceView,
  AgentRequestView,
  PickedVideoQuote,
  PickedVideosRequest,
} from '../../shared/models.ts';
import { shootWords, videoWords } from '../../shared/words.ts';
import { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
import { SANDBOX_ACCOUNT_NAME } from '../accounts/service-access.ts';
import { AppError } from '../app/errors.ts';
import type { HandlerMap, HandlersOf } from '../app/handler-map.ts';
import type { AgentPlan } from '../db/stored.ts';
import type { ScanHolder } from '../ingest/scan-holder.ts';
import { type BatchMakerDeps, batchMaker } from '../queue/batch-maker.ts';
import type { AgentRequest, AgentRequestStore } from './request-store.ts';

// Agents spend only with a person's yes (issue 16, docs/agents.md). An agent quotes a batch and submits the
// quote with a request id of its own; the batch is made at once only when the allowance the user set for
// agents covers it, else the request waits in the app's "Requests from agents" (or for `adbatch approve`).
// The check is here, in the handlers that make the batch, whatever carries the call: MCP over stdio or HTTP,
// or the app. A retried submit (same client, same request id) answers the first request. A quote that no
// longer holds when it is submitted or approved (the balance or the prices changed) expires: nothing is made.
//
// GUESS: a quote is kept 30 minutes, in the process that made it (it names a scan held in that process).

const QUOTE_TTL_MS = 30 * 60_000;
/** Who decides when nobody is asked. */
const BY_ALLOWANCE = 'the allowance';
const BY_APP = 'Adbatch';

interface HeldQuote {
  id: string;
  client: string;
  accountId: string;
  brandId: string | null;
  name: string;
  plan: AgentPlan;
  credits: number;
  balance: number | null;
  expiresAt: number;
}

export interface AgentsDeps extends BatchMakerDeps {
  scans: ScanHolder;
  agentRequests: AgentRequestStore;
  /** The handler map itself (made after this): videos are quoted and added by Make videos' own handlers. */
  handlers: () => HandlerMap;
}

const figures = new Intl.NumberFormat('en-US');

/** How often a process looks for requests made or decided by another (`adbatch mcp`, `adbatch approve`). */
const LOOK_AGAIN_MS = 2000;

export interface AgentDesk {
  handlers: HandlersOf<typeof agentsChannels>;
  /**
   * Announces (`agents:changed`) requests another process made or decided on the same data folder: an
   * agent on `adbatch mcp` beside the open app, a yes from `adbatch approve`. Returns the way to stop.
   */
  watch(): () => void;
}

export function agentDesk(ctx: AgentsDeps): AgentDesk {
  const { agentRequests: requests, store, services, brands, scans, events, log, now } = ctx;
  const maker = batchMaker(ctx);
  const quotes = new Map<string, HeldQuote>();

  const accountName = (accountId: string) => {
    if (accountId === SANDBOX_ACCOUNT_ID) return SANDBOX_ACCOUNT_NAME;
    try {
      return services.account(accountId).name;
    } catch {
      return accountId;
    }
  };

  /** The brand a key is pinned to: a batch on it is billed there unless another is chosen. */
  const pinnedBrand = (accountId: string): string | null =>
    accountId === SANDBOX_ACCOUNT_ID ? null : services.account(accountId).brandId;

  const settingsOf = (plan: AgentRequest['plan']): string => {
    if (plan.kind === 'unreadable') return 'a plan that cannot be read';
    if (plan.kind === 'videos') return `videos of ${videoWords(plan.videos.video)}, from the picks`;
    const { shoot, video } = plan.request;
    return video ? `${shootWords(shoot)}; video ${videoWords(video)}` : shootWords(shoot);
  };

  const view = (request: AgentRequest): AgentRequestView => {
    const { plan } = request;
    return {
      id: request.id,
      kind: plan.kind === 'videos' ? 'videos' : 'batch',
      client: request.client,
      clientRequestId: request.clientRequestId,
      createdAt: request.createdAt,
      name: request.name,
      accountName: accountName(request.accountId),
      brandName: request.brandId ? (brands.find(request.brandId)?.name ?? null) : null,
      products:
        plan.kind === 'unreadable' ? 0 : plan.kind === 'videos' ? plan.products : plan.products.length,
      settings: settingsOf(plan),
      credits: request.credits,
      balance: request.balance,
      state: request.state,
      decidedAt: request.decidedAt,
      decidedBy: request.decidedBy,
      // A waiting request whose plan cannot be read says why, where a decided one says why it was decided.
      reason: request.reason ?? (plan.kind === 'unreadable' ? plan.reason : null),
      batchId: request.batchId,
    };
  };

  /** The states this process announced or found: a change elsewhere is one that differs. */
  let seen = requests.states();

  const announce = (request: AgentRequest) => {
    seen.set(request.id, request.state);
    events.emit('agents:changed', {
      id: request.id,
      state: request.state,
      client: request.client,
      name: request.name,
      credits: request.credits,
    });
  };

  const changed = (id: string): AgentRequestView => {
    const request = requests.get(id)!;
    announce(request);
    return view(request);
  };

  const lookElsewhere = () => {
    if (!requests.writtenElsewhere()) return;
    const now = requests.states();
    for (const [id, state] of now) {
      if (seen.get(id) === state) continue;
      const request = requests.get(id);
      if (request) announce(request);
    }
    seen = now;
  };

  /** Whether the allowance covers these credits today: the day's, and the brand's where one is set. */
  const allowanceCovers = (credits: number, brandId: string | null): boolean => {
    const { perDay, perBrand } = requests.allowances();
    const limits: boolean[] = [];
    if (perDay !== null) limits.push(requests.usedToday() + credits <= perDay);
    const brandAllowance = brandId ? perBrand.get(brandId) : undefined;
    if (brandId && brandAllowance !== undefined) {
      limits.push(requests.usedToday(brandId) + credits <= brandAllowance);
    }
    return limits.length > 0 && limits.every(Boolean);
  };

  /**
   * Makes the request's batch, if its quote still holds: the batch's rows and the request's move to
   * `created` are one transaction, so two deciders (two windows, the app and the CLI) never make two batches.
   */
  const make = async (request: AgentRequest, by: string): Promise<AgentRequestView> => {
    const { plan } = request;
    // Nothing is made of a plan that cannot be read: the request expires, saying why.
    if (plan.kind === 'unreadable') {
      requests.decide(request.id, 'expired', by, {
        reason: `${plan.reason}. Nothing was made: ask the agent to quote again.`,
      });
      return changed(request.id);
    }
    if (plan.kind === 'videos') return makeVideos(request, plan.videos, by);
    let prepared: Awaited<ReturnType<typeof maker.prepare>>;
    try {
      prepared = await maker.prepare({
        request: { ...plan.request, scanId: 'agent-request' },
        products: plan.products,
      });
    } catch (error) {
      // The service refused the batch as it is now (the balance is short, a cap would be passed, every
      // product was shot since): the quote no longer holds. A network failure leaves it pending.
      if (error instanceof AppError && ['conflict', 'refused', 'bad_request'].includes(error.code)) {
        requests.decide(request.id, 'expired', by, { reason: error.message });
        return changed(request.id);
      }
      throw error;
    }
    if (expiredBy(request, prepared.credits, prepared.balance, by)) return changed(request.id);
    const batch = store.db.transaction(() => {
      const made = maker.commit(prepared, { agentClient: request.client });
      if (!requests.decide(request.id, 'created', by, { batchId: made.id })) {
        throw new AppError('conflict', 'This request was decided already.');
      }
      return made;
    })();
    log.info(`agent request ${request.id} of ${request.client}: batch ${batch.id} made (${by})`);
    await maker.start(batch);
    return changed(request.id);
  };

  /** Expires the request, saying why, when the price or the balance moved since its quote. */
  const expiredBy = (request: AgentRequest, credits: number, balance: number | null, by: string): boolean => {
    const drift: string[] = [];
    if (credits !== request.credits) {
      drift.push(`it now costs ${figures.format(credits)} credits, not ${figures.format(request.credits)}`);
    }
    if (balance !== request.balance) {
      const shown = (value: number | null) =>
        value === null ? 'unknown' : `${figures.format(value)} credits`;
      const before = request.balance === null ? 'unknown' : figures.format(request.balance);
      drift.push(`the balance is now ${shown(balance)}, not ${before}`);
    }
    if (drift.length === 0) return false;
    requests.decide(request.id, 'expired', by, {
      reason: `The quote no longer holds: ${drift.join('; ')}. Ask the agent to quote again.`,
    });
    return true;
  };

  /**
   * Adds the request's videos to its batch through Make videos' own handler. The request is claimed first
   * (pending to created), so two deciders never add them twice; if adding them then fails, it expires with why.
   */
  const makeVideos = async (request: AgentRequest, videos: PickedVideosRequest, by: string) => {
    const { handlers } = ctx;
    let quote: PickedVideoQuote;
    try {
      const batch = store.batches.get(videos.batchId as never);
      if (batch) services.forgetBatchBalance(batch);
      quote = await handlers()['videos:quote'](videos);
    } catch (error) {
      if (
        error instanceof AppError &&
        ['conflict', 'refused', 'bad_request', 'not_found'].includes(error.code)
      ) {
        requests.decide(request.id, 'expired', by, { reason: error.message });
        return changed(request.id);
      }
      throw error;
    }
    if (expiredBy(request, quote.credits, quote.balance, by)) return changed(request.id);
    if (!requests.decide(request.id, 'created', by, { batchId: videos.batchId })) {
      throw new AppError('conflict', 'This request was decided already.');
    }
    try {
      await handlers()['videos:create'](videos);
    } catch (error) {
      requests.failMaking(request.id, (error as Error).message);
      throw error;
    }
    log.info(`agent request ${request.id} of ${request.client}: videos added to ${videos.batchId} (${by})`);
    return changed(request.id);
  };

  const known = (id: string): AgentRequest => {
    const request = requests.get(id);
    if (!request) throw new AppError('not_found', `There is no request from an agent with the id ${id}.`);
    return request;
  };

  const pending = (id: string): AgentRequest => {
    const request = known(id);
    if (request.state !== 'pending') {
      throw new AppError(
        'conflict',
        `This request from ${request.client} was ${request.state === 'created' ? 'approved' : request.state} already.`,
      );
    }
    return request;
  };

  const allowanceView = (): AgentAllowanceView => {
    const { perDay, perBrand } = requests.allowances();
    return {
      perDay,
      perBrand: [...perBrand].map(([brandId, credits]) => ({
        brandId,
        brandName: brands.find(brandId)?.name ?? brandId,
        credits,
      })),
      usedToday: requests.usedToday(),
    };
  };

  /** Keeps a quote for `agents:submit` (and lets go of the expired ones). */
  const hold = (quote: Omit<HeldQuote, 'id' | 'expiresAt'>): HeldQuote => {
    for (const [id, held] of quotes) if (held.expiresAt < now()) quotes.delete(id);
    const held = { ...quote, id: `q_${randomBytes(8).toString('hex')}`, expiresAt: now() + QUOTE_TTL_MS };
    quotes.set(held.id, held);
    return held;
  };

  const handlers: AgentDesk['handlers'] = {
    'agents:quote': async ({ client, request }) => {
      const products = scans.products(request.scanId);
      const quote = await maker.quote(request, products, true);
      const { scanId: _scan, ...settings } = request;
      const held = hold({
        client,
        accountId: request.accountId,
        brandId: request.brandId ?? pinnedBrand(request.accountId),
        name: request.name,
        plan: { request: settings, products },
        credits: quote.credits,
        balance: quote.balance,
      });
      return { ...quote, quoteId: held.id, expiresAt: held.expiresAt };
    },
    'agents:quoteVideos': async ({ client, request }) => {
      const batch = store.batches.get(request.batchId as never);
      if (!batch) throw new AppError('not_found', `There is no batch ${request.batchId}.`);
      // Quoted on the balance as it is now, as a batch's quote is: a cached one would expire it at once.
      services.forgetBatchBalance(batch);
      const quote = await ctx.handlers()['videos:quote'](request);
      const held = hold({
        client,
        accountId: batch.accountId,
        brandId: batch.brandId,
        name: `Videos of ${batch.name}`,
        plan: {
          kind: 'videos',
          videos: request,
          products: quote.products.filter((product) => product.credits > 0).length,
        },
        credits: quote.credits,
        balance: quote.balance,
      });
      return { ...quote, quoteId: held.id, expiresAt: held.expiresAt };
    },
    'agents:submit': async ({ client, quoteId, clientRequestId }) => {
      const known = requests.byClientRequest(client, clientRequestId);
      if (known) return view(known);
      const quote = quotes.get(quoteId);
      if (!quote || quote.client !== client) {
        throw new AppError(
          'not_found',
          `There is no quote ${quoteId} for ${client} here: quote the batch again.`,
        );
      }
      if (quote.expiresAt < now()) {
        quotes.delete(quoteId);
        throw new AppError('conflict', `The quote ${quoteId} expired: quote the batch again.`);
      }
      const { request, fresh } = requests.insert({
        client,
        clientRequestId,
        accountId: quote.accountId,
        brandId: quote.brandId,
        name: quote.name,
        plan: quote.plan,
        credits: quote.credits,
        balance: quote.balance,
      });
      if (!fresh) return view(request);
      log.info(`agent request ${request.id} of ${client}: ${quote.credits} credits`);
      if (allowanceCovers(request.credits, request.brandId)) return make(request, BY_ALLOWANCE);
      return changed(request.id);
    },
    'agents:requests': async () => requests.list().map(view),
    'agents:request': async ({ id }) => view(known(id)),
    'agents:approve': async ({ id, by }) => make(pending(id), by ?? BY_APP),
    'agents:decline': async ({ id, by, reason }) => {
      pending(id);
      if (!requests.decide(id, 'declined', by ?? BY_APP, { reason: reason || null })) {
        throw new AppError('conflict', 'This request was decided already.');
      }
      return changed(id);
    },
    'agents:allowance': async () => allowanceView(),
    'agents:setAllowance': async ({ brandId, credits }) => {
      if (brandId !== null) brands.get(brandId);
      requests.setAllowance(brandId, credits);
      return allowanceView();
    },
  };

  return {
    handlers,
    watch() {
      const timer = setInterval(() => {
        try {
          lookElsewhere();
        } catch (error) {
          log.warn(`agents' requests could not be read: ${(error as Error).message}`);
        }
      }, LOOK_AGAIN_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
