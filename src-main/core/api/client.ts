import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { CallContext } from './call-context.ts';
import { ValidationError } from './errors.ts';
import { maskApiKey } from './guesses.ts';
import { errorFromResponse, malformedResponse } from './response-errors.ts';
import {
  brandListSchema,
  brandSchema,
  creditBalanceSchema,
  healthSchema,
  modelListSchema,
  shootSchema,
  usageReportSchema,
  videoSchema,
} from './schemas.ts';
import { exchange, MAX_ANSWER_BYTES } from './transport.ts';
import type {
  ClientBrand,
  CreditBalance,
  HealthStatus,
  Model,
  RemoteShoot,
  RemoteVideo,
  ShootBody,
  UsageQuery,
  UsageReport,
  VideoBody,
} from './types.ts';
import { shootRequest, usageSearchParams, videoRequest } from './wire.ts';

// The typed client of the ad generation service: one method per endpoint, one HTTP attempt per call, a
// domain object or a typed ApiError out. It holds no state besides its configuration, so the scheduler
// can share one per key and decide alone when to retry, pace or back off.

export interface ServiceClientOptions {
  /** The service's base address, without `/v1` (a trailing `/v1` is tolerated). */
  baseUrl: string;
  apiKey: string;
  /** Per-call time limits in ms: `create` for POSTs (default 30 s), `read` for GETs (default 15 s). */
  timeoutMs?: { create?: number; read?: number };
  /** An undici dispatcher (agent, proxy, mock); undici's global one by default. */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export const DEFAULT_TIMEOUTS_MS = { create: 30_000, read: 15_000 } as const;

const DEFAULT_USER_AGENT = `Adbatch (Node ${process.version})`;

type Call = Omit<CallContext, 'maskedKey'> & {
  body?: unknown;
  query?: URLSearchParams;
  /** Health is the one endpoint without a key; not sending it there keeps the key off the wire. */
  anonymous?: boolean;
};

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The base as `origin + path prefix`, without a trailing slash, e.g. `https://api.example.com/ads`. */
function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new TypeError(`The service address "${baseUrl}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`The service address must start with http:// or https://, not ${url.protocol}//.`);
  }
  // Paths in the description all start with /v1 and are relative to the base; people often paste the base
  // with /v1 already on it, which would otherwise give /v1/v1/...
  const prefix = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return `${url.origin}${prefix}`;
}

export class ServiceClient {
  /** The normalised base address (no trailing slash, no `/v1`). */
  readonly baseUrl: string;
  /** `…a1b2`: safe to show and log. */
  readonly maskedKey: string;
  readonly timeouts: { create: number; read: number };
  // A private field, so logging or inspecting a client never prints the key.
  readonly #apiKey: string;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #userAgent: string;

  constructor(options: ServiceClientOptions) {
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey.trim();
    this.maskedKey = this.#apiKey ? maskApiKey(this.#apiKey) : '';
    this.timeouts = {
      create: positive(options.timeoutMs?.create, DEFAULT_TIMEOUTS_MS.create),
      read: positive(options.timeoutMs?.read, DEFAULT_TIMEOUTS_MS.read),
    };
    this.#dispatcher = options.dispatcher;
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  }

  /** POST /v1/shoots. Credits are reserved when this resolves. Never retried here: see `maybeSent`. */
  createShoot(body: ShootBody): Promise<RemoteShoot> {
    return this.#send(
      {
        method: 'POST',
        path: '/v1/shoots',
        action: 'create the shoot',
        creates: 'shoot',
        charges: true,
        body: shootRequest(body),
      },
      shootSchema,
    );
  }

  /** GET /v1/shoots/{id}. */
  async getShoot(id: string): Promise<RemoteShoot> {
    const path = this.#itemPath('/v1/shoots', id, 'read the shoot');
    return this.#send({ method: 'GET', path, action: `read shoot ${id.trim()}` }, shootSchema);
  }

  /** POST /v1/videos. Credits are charged when this resolves (refunded by the service if it fails). */
  createVideo(body: VideoBody): Promise<RemoteVideo> {
    return this.#send(
      {
        method: 'POST',
        path: '/v1/videos',
        action: 'create the video',
        creates: 'video',
        charges: true,
        body: videoRequest(body),
      },
      videoSchema,
    );
  }

  /** GET /v1/videos/{id}. */
  async getVideo(id: string): Promise<RemoteVideo> {
    const path = this.#itemPath('/v1/videos', id, 'read the video');
    return this.#send({ method: 'GET', path, action: `read video ${id.trim()}` }, videoSchema);
  }

  /** GET /v1/credits: the account balance, or the shared pool for an agency key. */
  getCredits(): Promise<CreditBalance> {
    return this.#send(
      { method: 'GET', path: '/v1/credits', action: 'read the credit balance' },
      creditBalanceSchema,
    );
  }

  /** GET /v1/usage. The query parameter names are a guess (see guesses.ts). */
  async getUsage(query: UsageQuery = {}): Promise<UsageReport> {
    const action = 'read the usage report';
    const params = usageSearchParams(query);
    if (!(params instanceof URLSearchParams)) {
      throw this.#localError(action, `The "${params.invalid}" date is not a valid date.`, '/v1/usage');
    }
    return this.#send({ method: 'GET', path: '/v1/usage', action, query: params }, usageReportSchema);
  }

  /** GET /v1/brands (agency keys only; a personal key gets a ForbiddenError or similar). */
  listBrands(): Promise<ClientBrand[]> {
    return this.#send(
      { method: 'GET', path: '/v1/brands', action: 'list the client brands' },
      brandListSchema,
    );
  }

  /** POST /v1/brands (agency keys only). */
  createBrand(name: string): Promise<ClientBrand> {
    return this.#send(
      {
        method: 'POST',
        path: '/v1/brands',
        action: `create the brand "${name}"`,
        creates: 'brand',
        body: { name },
      },
      brandSchema,
    );
  }

  /** GET /v1/models: preset models plus the caller's own. */
  listModels(): Promise<Model[]> {
    return this.#send({ method: 'GET', path: '/v1/models', action: 'list the models' }, modelListSchema);
  }

  /** GET /v1/health, without the key. Any 2xx means up, whatever its body. */
  health(): Promise<HealthStatus> {
    return this.#send(
      { method: 'GET', path: '/v1/health', action: 'check the service', anonymous: true },
      healthSchema,
      { lenientBody: true },
    );
  }

  #itemPath(collection: string, id: string, action: string): string {
    const trimmed = typeof id === 'string' ? id.trim() : '';
    if (!trimmed) throw this.#localError(action, 'No identifier was given.', collection);
    return `${collection}/${encodeURIComponent(trimmed)}`;
  }

  /** A mistake caught before sending anything: typed like the service's own refusal, and never sent. */
  #localError(action: string, reason: string, path: string): ValidationError {
    return new ValidationError(`Could not ${action}. ${reason}`, {
      status: null,
      maybeSent: false,
      operation: `local ${path}`,
    });
  }

  async #send<T>(call: Call, schema: z.ZodType<T>, options: { lenientBody?: boolean } = {}): Promise<T> {
    const context: CallContext = {
      method: call.method,
      path: call.path,
      action: call.action,
      creates: call.creates,
      charges: call.charges,
      maskedKey: call.anonymous ? '' : this.maskedKey,
    };
    const url = new URL(`${this.baseUrl}${call.path}`);
    if (call.query) url.search = call.query.toString();
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent };
    if (!call.anonymous && this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }

    const answer = await exchange(
      {
        url,
        headers,
        body,
        timeoutMs: call.method === 'POST' ? this.timeouts.create : this.timeouts.read,
        dispatcher: this.#dispatcher,
      },
      context,
    );
    if (answer.status < 200 || answer.status >= 300) throw errorFromResponse(answer, context, this.#apiKey);
    if (answer.cutOff) {
      const reason = `it went on past ${MAX_ANSWER_BYTES / 1024 / 1024} MB, more than any answer of the service`;
      throw malformedResponse(answer.status, answer.body, reason, context, this.#apiKey);
    }

    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch (error) {
      if (!options.lenientBody) {
        throw malformedResponse(answer.status, answer.body, 'it is not JSON', context, this.#apiKey, error);
      }
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'the body';
      const reason = `${where}: ${issue?.message ?? 'unexpected shape'}`;
      throw malformedResponse(answer.status, answer.body, reason, context, this.#apiKey, parsed.error);
    }
    return parsed.data;
  }
}
