import { z } from 'zod';

// Fault injection for tests (POST /_sandbox/faults). A rule matches a method (any when absent) and a path
// prefix, fires with `probability`, at most `times` times, then retires.
//   status:    answer `status` in the error envelope without handling the request (like a gateway would)
//   delay:     wait `delay_ms`, then handle the request normally
//   reset:     handle the request (its effects happen, credits are spent), then drop the connection
//              without an answer; with `"when": "before"` drop it without handling anything
//   malformed: handle the request, then answer with its real status and a body that is not valid JSON
//              (for result files: the right length with corrupted bytes)
//   no_results: handle the request, then answer it with the results left out (`images` empty, `video_url`
//              null), as a service whose answer says `completed` before its results are filled might

export const faultRuleSchema = z
  .object({
    method: z
      .string()
      .transform((method) => method.toUpperCase())
      .optional(),
    path: z.string().startsWith('/'),
    action: z.enum(['status', 'delay', 'reset', 'malformed', 'no_results']),
    status: z.number().int().min(400).max(599).optional(),
    delay_ms: z.number().int().min(0).max(600_000).optional(),
    probability: z.number().min(0).max(1).default(1),
    times: z.number().int().positive().optional(),
    when: z.enum(['before', 'after']).default('after'),
  })
  .refine((rule) => rule.action !== 'status' || rule.status !== undefined, {
    message: 'a status fault needs "status"',
    path: ['status'],
  })
  .refine((rule) => rule.action !== 'delay' || rule.delay_ms !== undefined, {
    message: 'a delay fault needs "delay_ms"',
    path: ['delay_ms'],
  });

export type FaultRule = z.infer<typeof faultRuleSchema> & { id: number; fired: number };

const STATUS_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  404: 'not_found',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

export function faultErrorBody(status: number) {
  return {
    error: { code: STATUS_CODES[status] ?? 'sandbox_fault', message: `Injected fault: HTTP ${status}.` },
  };
}

export class FaultRules {
  private rules: FaultRule[] = [];
  private nextId = 1;

  constructor(private readonly random: () => number) {}

  add(input: unknown): FaultRule {
    const rule: FaultRule = { ...faultRuleSchema.parse(input), id: this.nextId++, fired: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return [...this.rules];
  }

  clear(): void {
    this.rules = [];
  }

  /** Retires one rule (the others keep their order); false when there is none by that id. */
  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  /** The first matching rule that fires for this request, counted as fired. */
  match(method: string, path: string): FaultRule | null {
    for (const rule of this.rules) {
      if (rule.method && rule.method !== method) continue;
      if (!path.startsWith(rule.path)) continue;
      if (this.random() >= rule.probability) continue;
      rule.fired++;
      if (rule.times !== undefined && rule.fired >= rule.times) {
        this.rules = this.rules.filter((candidate) => candidate !== rule);
      }
      return rule;
    }
    return null;
  }
}

/** An answer with its results left out (the `no_results` fault): a shoot's `images` empty, a video's `video_url` null. */
export function withoutResults(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const body = { ...(json as Record<string, unknown>) };
  if ('images' in body) body.images = [];
  if ('video_url' in body) body.video_url = null;
  return body;
}
