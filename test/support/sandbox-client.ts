import { setTimeout as sleep } from 'node:timers/promises';
import type { JobSummary } from '../../src-main/sandbox/server.ts';

// A thin HTTP client for the sandbox (or any service speaking the ad service contract), used by the
// integration tests. It never hides anything: every call answers the status, the headers, the raw text and
// the parsed JSON (or null when the body is not JSON).

export interface ApiError {
  code: string;
  message: string;
}

export interface ErrorBody {
  error: ApiError;
}

export interface ImageEntry {
  url: string | null;
  thumbnail_url: string | null;
  status: string | null;
}

export interface ShootBody {
  id: string;
  object: 'shoot';
  status: string;
  shots: number;
  shots_adjusted?: boolean;
  credits_used: number;
  credits_remaining: number;
  images: ImageEntry[];
  created_at: string;
  error?: ApiError;
}

export interface VideoBody {
  id: string;
  object: 'video';
  status: string;
  video_url: string | null;
  credits_used: number;
  credits_remaining: number;
  created_at: string;
  error?: ApiError;
}

/** Either job, for code that polls shoots and videos alike. */
export type JobBody = Omit<ShootBody, 'object'> & Omit<VideoBody, 'object'> & { object: 'shoot' | 'video' };

export interface CreditsBody {
  credits: number;
  balance: string;
  tenant: string | null;
}

export interface BrandBody {
  id: string;
  name: string;
  active: boolean;
  created_at: string;
}

export interface ModelBody {
  id: string;
  name: string;
  image_url: string;
  is_preset: boolean;
  tags: string[];
}

export interface UsageRowBody {
  brand_id: string;
  brand_name: string;
  images: number;
  image_credits: number;
  videos: number;
  video_credits: number;
}

export interface UsageBody {
  object: 'usage_report';
  period: { from: string; to: string };
  data: UsageRowBody[];
  totals: { images: number; videos: number; credits: number };
}

export interface ListBody<T> {
  object: 'list';
  data: T[];
}

export interface RequestLogEntryBody {
  at: string;
  method: string;
  path: string;
  status: number | null;
  key: string | null;
  body: unknown;
  fault?: string;
}

export interface FaultRuleInput {
  method?: string;
  path: string;
  action: 'status' | 'delay' | 'reset' | 'malformed';
  status?: number;
  delay_ms?: number;
  probability?: number;
  times?: number;
  when?: 'before' | 'after';
}

export interface CallOptions {
  /** The API key to present; none when absent or null. */
  key?: string | null;
  /** How to present the key: `Authorization: Bearer` (default) or `x-api-key`. */
  header?: 'bearer' | 'x-api-key';
  /** A JSON body (serialised with Content-Type: application/json). */
  body?: unknown;
  /** A raw body, sent as is (with `contentType`, application/json by default). */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; null when the body is empty or not JSON. */
  body: T;
}

export type PollableKind = 'shoots' | 'videos';

export interface WaitOptions {
  /** Statuses that end the wait; `completed` and `failed` by default. */
  until?: readonly string[];
  intervalMs?: number;
  timeoutMs?: number;
  /** A status seen before polling (the creation answer's), put first in `seen`. */
  initial?: string;
}

export interface WaitResult<T> {
  body: T;
  /** Every status observed, in order, repeats collapsed (the creation answer's status first if given). */
  seen: string[];
  /** Every body observed, in order. */
  polls: T[];
}

export class SandboxClient {
  constructor(readonly baseUrl: string) {}

  async call<T = ErrorBody>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) {
      if (options.header === 'x-api-key') headers['x-api-key'] = options.key;
      else headers.authorization = `Bearer ${options.key}`;
    }
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, headers: response.headers, text, body: parsed as T };
  }

  /** The balance the key sees, from GET /v1/credits. */
  async credits(key: string): Promise<number> {
    const response = await this.call<CreditsBody>('GET', '/v1/credits', { key });
    if (response.status !== 200)
      throw new Error(`GET /v1/credits answered ${response.status}: ${response.text}`);
    return response.body.credits;
  }

  createShoot(key: string, body: unknown) {
    return this.call<ShootBody & ErrorBody>('POST', '/v1/shoots', { key, body });
  }

  createVideo(key: string, body: unknown) {
    return this.call<VideoBody & ErrorBody>('POST', '/v1/videos', { key, body });
  }

  /** Polls GET /v1/{kind}/{id} until its status is one of `until`, collecting every status seen. */
  async waitForStatus<T extends { status: string } = JobBody>(
    kind: PollableKind,
    id: string,
    key: string,
    options: WaitOptions = {},
  ): Promise<WaitResult<T>> {
    const until = options.until ?? ['completed', 'failed'];
    const intervalMs = options.intervalMs ?? 10;
    const deadline = Date.now() + (options.timeoutMs ?? 25_000);
    const seen: string[] = options.initial ? [options.initial] : [];
    const polls: T[] = [];
    for (;;) {
      const response = await this.call<T>('GET', `/v1/${kind}/${encodeURIComponent(id)}`, { key });
      if (response.status !== 200)
        throw new Error(`GET /v1/${kind}/${id} answered ${response.status}: ${response.text}`);
      polls.push(response.body);
      if (seen.at(-1) !== response.body.status) seen.push(response.body.status);
      if (until.includes(response.body.status)) return { body: response.body, seen, polls };
      if (Date.now() > deadline) {
        throw new Error(
          `${kind}/${id} still ${response.body.status} after ${options.timeoutMs ?? 25_000} ms (seen ${seen.join(' -> ')})`,
        );
      }
      await sleep(intervalMs);
    }
  }

  // --- control endpoints (/_sandbox/...) ---

  async reset(): Promise<void> {
    const response = await this.call<unknown>('POST', '/_sandbox/reset');
    if (response.status !== 200) throw new Error(`reset answered ${response.status}`);
  }

  async addFault(rule: FaultRuleInput): Promise<{ id: number }> {
    const response = await this.call<{ id: number }>('POST', '/_sandbox/faults', { body: rule });
    if (response.status !== 201)
      throw new Error(`adding a fault answered ${response.status}: ${response.text}`);
    return response.body;
  }

  async removeFault(id: number): Promise<void> {
    const response = await this.call<unknown>('DELETE', `/_sandbox/faults/${id}`);
    if (response.status !== 200)
      throw new Error(`removing fault ${id} answered ${response.status}: ${response.text}`);
  }

  async clearFaults(): Promise<void> {
    await this.call<unknown>('DELETE', '/_sandbox/faults');
  }

  async requestLog(): Promise<RequestLogEntryBody[]> {
    return (await this.call<{ data: RequestLogEntryBody[] }>('GET', '/_sandbox/requests')).body.data;
  }

  /** Every shoot and video the sandbox holds, with the statuses it has been through. */
  async jobs(): Promise<JobSummary[]> {
    return (await this.call<{ data: JobSummary[] }>('GET', '/_sandbox/jobs')).body.data;
  }

  failJob(id: string) {
    return this.call<JobBody & ErrorBody>('POST', `/_sandbox/jobs/${encodeURIComponent(id)}/fail`);
  }
}

/** Fetches a result file without any key; answers the status, content type and bytes. */
export async function fetchBytes(
  url: string,
): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** True when `seen` appears in `order` in the same relative order (a subsequence). */
export function isSubsequence(seen: readonly string[], order: readonly string[]): boolean {
  let position = 0;
  for (const status of seen) {
    const found = order.indexOf(status, position);
    if (found === -1) return false;
    position = found + 1;
  }
  return true;
}
