import { decodePathSegment, HttpError, json, type Reply } from './http.ts';
import { presentBrand, presentJob, presentUsage } from './present.ts';
import { MODEL_PRESETS } from './render/model-presets.ts';
import type { Caller, SandboxService } from './service.ts';

// The keyed /v1 endpoints. Sandbox choices for what the description leaves open: POST /v1/videos and
// POST /v1/brands answer 201; usage takes `from`, `to` (ISO 8601) and `brand_id`; lists are not paginated
// and are ordered oldest first; a personal key's balance is `"balance": "account"` with `tenant: null`.

export interface RouteContext {
  method: string;
  url: URL;
  body: () => unknown;
  baseUrl: string;
  now: number;
}

type Handler = (service: SandboxService, caller: Caller, context: RouteContext, id: string) => Reply;

const routes: Array<{ pattern: RegExp; methods: Record<string, Handler> }> = [
  {
    pattern: /^\/v1\/shoots$/,
    methods: {
      POST: (service, caller, context) =>
        json(201, presentJob(service.createShoot(caller, context.body()), context.baseUrl)),
    },
  },
  {
    pattern: /^\/v1\/shoots\/([^/]+)$/,
    methods: {
      GET: (service, caller, context, id) =>
        json(200, presentJob(service.getJob(caller, 'shoot', id), context.baseUrl)),
    },
  },
  {
    pattern: /^\/v1\/videos$/,
    methods: {
      POST: (service, caller, context) =>
        json(201, presentJob(service.createVideo(caller, context.body()), context.baseUrl)),
    },
  },
  {
    pattern: /^\/v1\/videos\/([^/]+)$/,
    methods: {
      GET: (service, caller, context, id) =>
        json(200, presentJob(service.getJob(caller, 'video', id), context.baseUrl)),
    },
  },
  {
    pattern: /^\/v1\/credits$/,
    methods: {
      GET: (service, caller) => {
        const account = service.balance(caller);
        return json(200, {
          object: 'credit_balance',
          credits: account.credits,
          balance: account.type === 'agency' ? 'pool' : 'account',
          tenant: account.type === 'agency' ? account.name : null,
        });
      },
    },
  },
  {
    pattern: /^\/v1\/usage$/,
    methods: {
      GET: (service, caller, context) => {
        const query = usageQuery(context.url, context.now);
        const { rows, totals } = service.usage(caller, query);
        return json(200, presentUsage(query, rows, totals));
      },
    },
  },
  {
    pattern: /^\/v1\/brands$/,
    methods: {
      GET: (service, caller) =>
        json(200, { object: 'list', data: service.listBrands(caller).map(presentBrand) }),
      POST: (service, caller, context) =>
        json(201, presentBrand(service.createBrand(caller, context.body()))),
    },
  },
  {
    pattern: /^\/v1\/models$/,
    methods: {
      GET: (_service, _caller, context) =>
        json(200, {
          object: 'list',
          data: MODEL_PRESETS.map((model) => ({
            id: model.id,
            object: 'model',
            name: model.name,
            image_url: `${context.baseUrl}/cdn/models/${model.id}.jpg`,
            is_preset: true,
            tags: model.tags,
          })),
        }),
    },
  },
];

export function routeKeyed(service: SandboxService, caller: Caller, context: RouteContext): Reply {
  const path = context.url.pathname;
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const handler = route.methods[context.method];
    if (!handler) {
      throw new HttpError(405, 'method_not_allowed', `${context.method} is not allowed on ${path}.`, {
        allow: Object.keys(route.methods).join(', '),
      });
    }
    return handler(service, caller, context, decodePathSegment(match[1] ?? ''));
  }
  throw new HttpError(404, 'not_found', `No endpoint ${context.method} ${path}.`);
}

function startOfMonthUtc(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function parseInstant(url: URL, name: string): number | null {
  const value = url.searchParams.get(name);
  if (value === null || value === '' || value === 'now') return null;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new HttpError(400, 'invalid_field', `${name} must be an ISO 8601 date-time.`);
  return time;
}

function usageQuery(url: URL, now: number) {
  const from = parseInstant(url, 'from') ?? startOfMonthUtc(now);
  const to = parseInstant(url, 'to');
  if (to !== null && to < from) throw new HttpError(400, 'invalid_field', 'to must not be before from.');
  return { from, to, brandId: url.searchParams.get('brand_id') || null };
}
