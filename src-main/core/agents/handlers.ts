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
import type { ScanHolder } from '../ingest/scan-holder.ts';
import { type BatchMakerDeps, batchMaker } from '../queue/batch-maker.ts';
import { decideSpending } from '../queue/spend.ts';
import type { Batch } from '../queue/types.ts';
import type { AgentQuoteStore } from './quote-store.ts';
import type { AgentRequest, AgentRequestStore } from './request-store.ts';

// Agents spend only with a person's yes (issue 16, docs/agents.md). An agent quotes a batch and submits the
// quote with a request id of its own; the batch is made at once only when the allowance the user set for
// agents covers it, else the request waits in the app's "Requests from agents" (or for `adbatch approve`).
// The check is here, in the handlers that make the batch, whatever carries the call: MCP over stdio or HTTP,
// or the app. A retried submit (same client, same request id) answers the first request. A quote that no
// longer holds when it is submitted or approved (the balance or the prices changed) expires: nothing is made.
// Each spending step is one decision (queue/spend.ts): a quote makes one request (a second use is refused,
// naming the first), and the allowance is checked again in the transaction that writes the batch and the
// request's move, so submits at once, in one process or several, never pass it together.
// An agent's scans and quotes are kept in the database 30 minutes (quote-store.ts): any process on the data
// folder answers them, so a client that starts a server per call quotes and submits as with one server.

/** Who decides when nobody is asked. */
const BY_ALLOWANCE = 'the allowance';
const BY_APP = 'Adbatch';

export interface AgentsDeps extends BatchMakerDeps {
  scans: ScanHolder;
  agentRequests: AgentRequestStore;
  agentQuotes: AgentQuoteStore;
  /** The handler map itself (made after this): videos are quoted and added by Make videos' own handlers. */
  handlers: () => HandlerMap;
}

const figures = new Intl.NumberFormat('en-US');

/** The allowance no longer covers a request (spent by another meanwhile): it waits for a person, saying why. */
class AllowanceSpent extends Error {}

/** Why a quote cannot be submitted again: the request it made, and the batch that made, if any. */
function quoteUsed(quoteId: string, first: AgentRequest): string {
  const what =
    first.state === 'created' && first.batchId
      ? `it made batch ${first.batchId} ("${first.name}"), as request ${first.id}`
      : `it is request ${first.id}, ${first.state === 'pending' ? 'still pending' : first.state}`;
  return `The quote ${quoteId} was used already: ${what}. One quote makes one batch: quote again for another.`;
}

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
  const { agentRequests: requests, agentQuotes: kept, store, services, brands, scans, events, log } = ctx;
  const maker = batchMaker(ctx);

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

  /**
   * Why the allowance does not cover these credits today (the day's, and the brand's where one is set), or
   * null when it does. None set covers nothing.
   */
  const allowanceShort = (credits: number, brandId: string | null): string | null => {
    const { perDay, perBrand } = requests.allowances();
    const brandAllowance = brandId ? perBrand.get(brandId) : undefined;
    if (perDay === null && brandAllowance === undefined) return 'no allowance is set for agents';
    const short = (allowance: number, used: number, whose: string) =>
      used + credits <= allowance
        ? null
        : `${whose} allowance of ${figures.format(allowance)} credits a day has ${figures.format(Math.max(0, allowance - used))} left today, and this costs ${figures.format(credits)}`;
    return (
      (perDay === null ? null : short(perDay, requests.usedToday(), 'the agents’')) ??
      (brandId && brandAllowance !== undefined
        ? short(brandAllowance, requests.usedToday(brandId), `${brands.find(brandId)?.name ?? brandId}’s`)
        : null)
    );
  };

  /**
   * The limits of a request's move to created, checked in the spending decision that writes it: it is
   * still pending, and, when the allowance decides, the allowance still covers it.
   */
  const claimable = (request: AgentRequest, by: string) => {
    if (requests.get(request.id)?.state !== 'pending') {
      throw new AppError('conflict', 'This request was decided already.');
    }
    const short = by === BY_ALLOWANCE ? allowanceShort(request.credits, request.brandId) : null;
    if (short) {
      throw new AllowanceSpent(
        `It waits for a person: ${short} (spent by another request while this one was being made).`,
      );
    }
  };

  /**
   * A refusal of the spending decision: a request the allowance no longer covers waits, saying why; one
   * whose quote no longer holds (the balance is short, a cap would be passed, its products are being shot
   * by a batch made meanwhile) expires, saying why. Anything else (a network failure, a request decided
   * by another) is thrown.
   */
  const refused = (request: AgentRequest, by: string, error: unknown, codes: readonly string[]) => {
    if (error instanceof AllowanceSpent) {
      requests.noteWaiting(request.id, error.message);
      return changed(request.id);
    }
    if (
      error instanceof AppError &&
      codes.includes(error.code) &&
      requests.decide(request.id, 'expired', by, { reason: error.message })
    ) {
      return changed(request.id);
    }
    throw error;
  };

  /**
   * Makes the request's batch, if its quote still holds: the batch's rows, the request's move to `created`
   * (what the allowance counts) and the check of every limit are one spending decision, so two deciders
   * (two windows, the app and the CLI, submits at once within the allowance) never pass one limit together.
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
      return refused(request, by, error, ['conflict', 'refused', 'bad_request']);
    }
    if (expiredBy(request, prepared.credits, prepared.balance, by)) return changed(request.id);
    let batch: Batch;
    try {
      batch = maker.commit(prepared, {
        agentClient: request.client,
        check: () => claimable(request, by),
        record: (made) => requests.decide(request.id, 'created', by, { batchId: made.id }),
      });
    } catch (error) {
      return refused(request, by, error, ['conflict', 'refused']);
    }
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
      return refused(request, by, error, ['conflict', 'refused', 'bad_request', 'not_found']);
    }
    if (expiredBy(request, quote.credits, quote.balance, by)) return changed(request.id);
    try {
      decideSpending(store, () => {
        claimable(request, by);
        requests.decide(request.id, 'created', by, { batchId: videos.batchId });
      });
    } catch (error) {
      return refused(request, by, error, []);
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

  /**
   * The products of a scan: one kept for agents (any process's), else one this process holds (the app's).
   * Neither: the agent is told what to do, in its terms, not the app's "drop the folders again".
   */
  const scanned = (scanId: string) => {
    const products = kept.scan(scanId);
    if (products) return products;
    try {
      return scans.products(scanId);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) throw error;
      throw new AppError(
        'not_found',
        `Scan ${scanId} expired or is unknown (scans are kept 30 minutes): quote again with the paths instead of the scan id.`,
      );
    }
  };

  const handlers: AgentDesk['handlers'] = {
    'agents:scan': async (input) => {
      const scan = await ctx.handlers()['ingest:scan'](input);
      const held = kept.holdScan(scans.products(scan.scanId));
      return { ...scan, scanId: held.id };
    },
    'agents:quote': async ({ client, request }) => {
      const products = scanned(request.scanId);
      const quote = await maker.quote(request, products, true);
      const { scanId: _scan, ...settings } = request;
      const held = kept.holdQuote({
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
      const held = kept.holdQuote({
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
      const quote = kept.quote(quoteId);
      if (!quote || quote.client !== client) {
        throw new AppError(
          'not_found',
          `There is no quote ${quoteId} for ${client} here: quote the batch again.`,
        );
      }
      if (quote.expiresAt < ctx.now()) {
        throw new AppError('conflict', `The quote ${quoteId} expired: quote the batch again.`);
      }
      // A quote of products all shot already makes nothing: refused now, not left to expire at its approval.
      if (quote.credits === 0 && quote.plan.kind !== 'videos') {
        throw new AppError(
          'bad_request',
          `The quote ${quoteId} has nothing to shoot: its products were shot already with these settings. Quote again with includeDone to shoot them again.`,
        );
      }
      // One quote, one request: checked and written in one decision, so submits at once (in this process or
      // another on the data folder) cannot both use it. The same client request id is the same request.
      const { request, fresh } = decideSpending(store, () => {
        const first = requests.byQuote(quoteId);
        if (first && !(first.client === client && first.clientRequestId === clientRequestId)) {
          throw new AppError('conflict', quoteUsed(quoteId, first));
        }
        return requests.insert({
          client,
          clientRequestId,
          quoteId,
          accountId: quote.accountId,
          brandId: quote.brandId,
          name: quote.name,
          plan: quote.plan,
          credits: quote.credits,
          balance: quote.balance,
        });
      });
      if (!fresh) return view(request);
      log.info(`agent request ${request.id} of ${client}: ${quote.credits} credits`);
      // Asked here to leave a request the allowance does not cover pending without asking the service; the
      // spending decision asks again.
      if (!allowanceShort(request.credits, request.brandId)) return make(request, BY_ALLOWANCE);
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
