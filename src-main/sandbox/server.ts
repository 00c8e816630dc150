import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FOREIGN_HOST_REFUSAL, FOREIGN_HOST_STATUS, isOwnHost, ownHosts } from '../shared/loopback.ts';
import { type AccountsFile, defaultAccounts } from './accounts.ts';
import type { DurationSpread } from './duration-spread.ts';
import { ResultExpiry } from './expiry.ts';
import { type FaultRule, FaultRules, faultErrorBody, withoutResults } from './faults.ts';
import { serveFile } from './files.ts';
import {
  decodePathSegment,
  errorReply,
  HttpError,
  isLoopback,
  json,
  loggedBody,
  parseBody,
  presentedKey,
  type Reply,
  readBody,
  writeReply,
} from './http.ts';
import { presentJob } from './present.ts';
import { parseRateLimit, type RateLimit, RateLimiter } from './rate-limiter.ts';
import { MODEL_PRESETS, renderModelPreset } from './render/model-presets.ts';
import type { VideoRenderer } from './render/video.ts';
import { shotFile, thumbnailFile, VIDEO_FILE } from './results.ts';
import { routeKeyed } from './routes.ts';
import { SandboxService } from './service.ts';
import { dataFromAccounts, SandboxStore } from './state.ts';
import { WorkQueue } from './work-queue.ts';

export interface SandboxOptions {
  host?: string;
  port?: number;
  accounts?: AccountsFile;
  /** Multiplies every job duration: 1 is real time, 0.01 a hundred times faster. */
  timeScale?: number;
  rateLimit?: RateLimit | string;
  /** Probability that a job fails while generating (refunded). */
  failureRate?: number;
  /** How generation times spread from job to job (`duration-spread.ts`; default steady, ±20 %). */
  durations?: DurationSpread;
  /** A JSON file the state is kept in, so it survives a restart; results go beside it. */
  stateFile?: string;
  videoRenderer?: VideoRenderer;
  /** Concurrent renders; defaults to 2. */
  renderConcurrency?: number;
  now?: () => number;
  random?: () => number;
  onError?: (message: string, error: unknown) => void;
}

export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  /** The HTTP status answered, or null when the connection was dropped without an answer. */
  status: number | null;
  /** The last 4 characters of the key presented, if any. */
  key: string | null;
  body: unknown;
  fault?: FaultRule['action'];
}

export interface JobSummary {
  id: string;
  kind: 'shoot' | 'video';
  status: string;
  credits: number;
  refunded: boolean;
  history: Array<{ status: string; at: string }>;
}

export interface Sandbox {
  url: string;
  port: number;
  accounts(): Array<{
    name: string;
    type: 'personal' | 'agency';
    credits: number;
    plan: string | null;
    keys: Array<{ key: string; brand: string | null }>;
  }>;
  requests(): RequestLogEntry[];
  /** Every job with the time it entered each status: what tests and benchmarks measure against. */
  jobs(): JobSummary[];
  close(): Promise<void>;
}

const SHOOT_FILE = /^(?:shot|thumb)-\d+\.jpg$/;

/**
 * The addresses besides loopback a sandbox bound to `requested` answers at: that name and the address it
 * resolved to, or every address of this machine when bound to all of them (`--host 0.0.0.0`).
 * GUESS: the machine's own host name is not among them; a client on the LAN uses an address.
 */
function boundAddresses(requested: string | undefined, bound: string): string[] {
  if (bound !== '0.0.0.0' && bound !== '::') return [requested ?? bound, bound];
  return Object.values(networkInterfaces()).flatMap((infos) => (infos ?? []).map((info) => info.address));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const onError = options.onError ?? ((message, error) => console.error(`sandbox: ${message}:`, error));
  const rate =
    typeof options.rateLimit === 'string'
      ? parseRateLimit(options.rateLimit)
      : (options.rateLimit ?? { limit: 60, windowMs: 60_000 });
  const seed = options.accounts ?? defaultAccounts();
  const store = await SandboxStore.open(options.stateFile ?? null, () => dataFromAccounts(seed, now()));
  const temporaryAssets = options.stateFile ? null : await mkdtemp(join(tmpdir(), 'adbatch-sandbox-'));
  const assetsDir = temporaryAssets ?? `${options.stateFile}.assets`;
  const service = new SandboxService(store, {
    timing: {
      timeScale: options.timeScale ?? 1,
      failureRate: options.failureRate ?? 0,
      ...(options.durations ? { durations: options.durations } : {}),
      random,
    },
    now,
    assetsDir,
    videoRenderer: options.videoRenderer ?? 'auto',
    renders: new WorkQueue(options.renderConcurrency ?? 2),
    onError,
  });
  const limiter = new RateLimiter(rate, now);
  const faults = new FaultRules(random);
  const expiry = new ResultExpiry();
  const requestLog: RequestLogEntry[] = [];
  const modelImages = new Map<string, Promise<Buffer>>();
  let listeningUrl = '';
  /** The Host headers this server answers to, known once it listens. */
  let hosts = new Set<string>();

  function control(method: string, path: string, raw: string): Reply {
    if (method === 'GET' && path === '/_sandbox/requests') return json(200, { data: requestLog });
    if (method === 'GET' && path === '/_sandbox/accounts') return json(200, { data: sandbox.accounts() });
    if (method === 'GET' && path === '/_sandbox/jobs') return json(200, { data: sandbox.jobs() });
    if (path === '/_sandbox/faults') {
      if (method === 'GET') return json(200, { data: faults.list() });
      if (method === 'DELETE') {
        faults.clear();
        return json(200, { data: [] });
      }
      if (method === 'POST') {
        try {
          return json(201, faults.add(parseBody(raw, 'application/json')));
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw new HttpError(400, 'invalid_fault', `Invalid fault rule: ${(error as Error).message}`);
        }
      }
    }
    const oneFault = /^\/_sandbox\/faults\/(\d+)$/.exec(path);
    if (oneFault && method === 'DELETE') {
      if (!faults.remove(Number(oneFault[1])))
        throw new HttpError(404, 'not_found', `No fault rule ${oneFault[1]}.`);
      return json(200, { data: faults.list() });
    }
    if (path === '/_sandbox/results/expire') {
      if (method === 'DELETE') {
        expiry.clear();
        return json(200, { ok: true });
      }
      if (method === 'POST') {
        service.advanceAll();
        const completed = store.data.jobs.filter((job) => job.status === 'completed');
        try {
          return json(
            200,
            expiry.expire(completed, raw ? parseBody(raw, 'application/json') : {}, (job) =>
              service.renewAssetToken(store.data.jobs.find((each) => each.id === job.id)!),
            ),
          );
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw new HttpError(400, 'invalid_expiry', `Invalid expiry: ${(error as Error).message}`);
        }
      }
    }
    const fail = /^\/_sandbox\/jobs\/([^/]+)\/fail$/.exec(path);
    if (method === 'POST' && fail)
      return json(200, presentJob(service.forceFail(decodePathSegment(fail[1]!)), listeningUrl));
    if (method === 'POST' && path === '/_sandbox/reset') {
      store.replace(dataFromAccounts(store.data.seed, now()));
      limiter.clear();
      faults.clear();
      expiry.clear();
      requestLog.length = 0;
      return json(200, { ok: true });
    }
    throw new HttpError(404, 'not_found', `No control endpoint ${method} ${path}.`);
  }

  async function serveAsset(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    fault: FaultRule | null,
  ) {
    const model = /^\/cdn\/models\/([^/]+)\.jpg$/.exec(path);
    if (model && MODEL_PRESETS.some((preset) => preset.id === model[1])) {
      const id = model[1]!;
      if (!modelImages.has(id)) modelImages.set(id, renderModelPreset(id));
      const image = await modelImages.get(id)!;
      res.writeHead(200, {
        'content-type': 'image/jpeg',
        'content-length': image.length,
        'cache-control': 'public, max-age=86400',
      });
      res.end(req.method === 'HEAD' ? undefined : image);
      return 200;
    }
    const asset = /^\/cdn\/([^/]+)\/([^/]+)$/.exec(path);
    // An address renewed since (POST /_sandbox/results/expire with `renew`) leads to no job any more.
    const renewedAway = asset && expiry.statusOf(asset[1]!);
    if (renewedAway && !service.findByAssetToken(asset[1]!)) {
      throw new HttpError(
        renewedAway,
        renewedAway === 410 ? 'gone' : 'not_found',
        'This result is no longer served.',
      );
    }
    const job = asset && service.findByAssetToken(asset[1]!);
    const file = asset?.[2] ?? '';
    service.advanceAll();
    const servable =
      job?.status === 'completed' &&
      ((job.kind === 'shoot' && SHOOT_FILE.test(file) && shotIndexInRange(job.shots, file)) ||
        (job.kind === 'video' && file === VIDEO_FILE));
    if (!job || !servable) throw new HttpError(404, 'not_found', 'No such file.');
    const expired = expiry.statusOf(job.assetToken);
    if (expired) {
      throw new HttpError(
        expired,
        expired === 410 ? 'gone' : 'not_found',
        'This result is no longer served.',
      );
    }
    return serveFile(
      req,
      res,
      join(service.assetDir(job.assetToken), file),
      file.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg',
      fault,
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Before the API and the tokenless control endpoints alike: a foreign Host is a page that reached this
    // port by DNS rebinding (issue 28), and must not read the keys.
    if (!isOwnHost(req.headers.host, hosts)) {
      writeReply(
        res,
        errorReply(new HttpError(FOREIGN_HOST_STATUS, 'misdirected_request', FOREIGN_HOST_REFUSAL)),
        false,
      );
      return;
    }
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    const baseUrl = req.headers.host ? `http://${req.headers.host}` : listeningUrl;
    let raw = '';
    try {
      raw = await readBody(req);
    } catch (error) {
      writeReply(res, errorReply(error as HttpError), false);
      return;
    }

    if (path.startsWith('/_sandbox/')) {
      if (!isLoopback(req.socket.remoteAddress)) {
        writeReply(
          res,
          errorReply(new HttpError(403, 'forbidden', 'Sandbox control endpoints answer loopback only.')),
          false,
        );
        return;
      }
      writeReply(
        res,
        attempt(() => control(method, path, raw)),
        false,
      );
      return;
    }

    const key = presentedKey(req);
    const entry: RequestLogEntry = {
      at: new Date(now()).toISOString(),
      method,
      path: `${path}${url.search}`,
      status: null,
      key: key ? key.slice(-4) : null,
      body: loggedBody(raw),
    };
    requestLog.push(entry);
    const fault = faults.match(method, path);
    if (fault) entry.fault = fault.action;
    if (fault?.action === 'delay') await sleep(fault.delay_ms ?? 0);
    if (fault?.action === 'status') {
      entry.status = fault.status!;
      writeReply(res, json(fault.status!, faultErrorBody(fault.status!)), false);
      return;
    }
    if (fault?.action === 'reset' && fault.when === 'before') {
      res.destroy();
      return;
    }

    if (path.startsWith('/cdn/') && (method === 'GET' || method === 'HEAD')) {
      try {
        entry.status = await serveAsset(req, res, path, fault);
      } catch (error) {
        const reply = error instanceof HttpError ? errorReply(error) : json(500, faultErrorBody(500));
        entry.status = reply.status;
        writeReply(res, reply, false);
      }
      return;
    }

    const reply = attempt(() => {
      if (path === '/v1/health') {
        if (method !== 'GET')
          throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on /v1/health.`, {
            allow: 'GET',
          });
        return json(200, {
          status: 'ok',
          version: '1.0.0',
          sandbox: true,
          time: new Date(now()).toISOString(),
        });
      }
      if (!path.startsWith('/v1/')) throw new HttpError(404, 'not_found', `No endpoint ${method} ${path}.`);
      const caller = service.authenticate(key);
      const waitMs = limiter.take(caller.key.key);
      if (waitMs > 0) {
        throw new HttpError(
          429,
          'rate_limited',
          `More than ${rate.limit} requests in ${rate.windowMs / 1000} s for this key.`,
          {
            'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
          },
        );
      }
      return routeKeyed(service, caller, {
        method,
        url,
        body: () => parseBody(raw, req.headers['content-type']),
        baseUrl,
        now: now(),
      });
    });
    if (fault?.action === 'reset') {
      res.destroy();
      return;
    }
    entry.status = reply.status;
    const answered =
      fault?.action === 'no_results' && 'json' in reply
        ? { ...reply, json: withoutResults(reply.json) }
        : reply;
    writeReply(res, answered, fault?.action === 'malformed');
  }

  function attempt(run: () => Reply): Reply {
    try {
      return run();
    } catch (error) {
      if (error instanceof HttpError) return errorReply(error);
      onError('request failed', error);
      return json(500, { error: { code: 'internal_error', message: 'The sandbox hit an internal error.' } });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      onError('request failed', error);
      if (!res.headersSent)
        writeReply(res, json(500, { error: { code: 'internal_error', message: 'Internal error.' } }), false);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  hosts = ownHosts(address.port, boundAddresses(options.host, address.address));
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  listeningUrl = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${address.port}`;
  service.resumeRenders();

  const sandbox: Sandbox = {
    url: listeningUrl,
    port: address.port,
    accounts() {
      service.advanceAll();
      const { accounts, keys, brands } = store.data;
      return accounts.map((account) => ({
        name: account.name,
        type: account.type,
        credits: account.credits,
        plan: account.plan,
        keys: keys
          .filter((key) => key.accountId === account.id)
          .map((key) => ({
            key: key.key,
            brand: brands.find((brand) => brand.id === key.brandId)?.name ?? null,
          })),
      }));
    },
    requests: () => [...requestLog],
    jobs() {
      service.advanceAll();
      return store.data.jobs.map((job) => ({
        id: job.id,
        kind: job.kind,
        status: job.status,
        credits: job.credits,
        refunded: job.refunded,
        history: job.history.map((step) => ({ status: step.status, at: new Date(step.at).toISOString() })),
      }));
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await service.close();
      await store.flush();
      if (temporaryAssets) await rm(temporaryAssets, { recursive: true, force: true });
    },
  };
  return sandbox;
}

function shotIndexInRange(shots: number, file: string): boolean {
  const index = Number(/-(\d+)\.jpg$/.exec(file)?.[1]);
  return index >= 1 && index <= shots && (file === shotFile(index - 1) || file === thumbnailFile(index - 1));
}
