import { randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShootBody, VideoBody } from '../../../src-main/core/api/types.ts';
import { shootRequest, videoRequest } from '../../../src-main/core/api/wire.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import type { Job } from '../../../src-main/core/queue/types.ts';
import { seededRandom } from '../../../src-main/sandbox/render/random.ts';
import { type Child, killChildren, startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN } from '../../support/cli.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';
import { newKey } from '../../support/sandbox-harness.ts';

// Guarantees 1 and 2 through the app's own path (createCore driven by its handler map, as the window
// drives it): the core process is killed (kill -9) at seeded random moments mid-batch and started again on
// the same data folder; the sandbox runs in a process of its own and outlives every kill. In the end no
// intent was created twice, every result is on disk and verified, and nothing the service completed is
// marked failed. ADBATCH_CRASH_SEED=<seed> replays the kill times of a run (the seed is printed).

const ROOT = resolve(__dirname, '../../..');
const CORE_PROCESS = join(ROOT, 'test/harness/core-process.ts');
const PRODUCTS = 30;
const KILLS = 6;
/** Sandbox durations and the rate window (60 requests per 9 s), compressed alike. */
const TIME_SCALE = 0.15;
/**
 * A kill comes this long after the core said it was ready (ms). At least 2 s: the service fetches a job's
 * photos when it gets to the job and gives up on a host that stays away (the sandbox after 20 s of retries
 * every 2 s at most), so each start must serve long enough for such a fetch to land, however long the
 * restarts take on a busy machine. At most 3 s: the batch needs at least a create and a poll per job (over
 * 120 requests, more than 18 s at 60 per 9 s), so six starts cannot finish it and every kill falls mid-batch.
 */
const KILL_AFTER_MS = { min: 2000, max: 3000 };
const SEED = process.env.ADBATCH_CRASH_SEED ? Number(process.env.ADBATCH_CRASH_SEED) : randomInt(2 ** 31);
if (!Number.isSafeInteger(SEED))
  throw new Error(`ADBATCH_CRASH_SEED must be a whole number, not "${process.env.ADBATCH_CRASH_SEED}"`);

/** The batch as a kill left it, read from the data folder while no core runs. */
function batchOnDisk(dbFile: string): { status: string; done: number; summary: string } {
  const db = new Database(dbFile, { readonly: true });
  try {
    const { status } = db.prepare('SELECT status FROM batches').get() as { status: string };
    const rows = db
      .prepare(
        'SELECT state, failure_message AS reason, count(*) AS jobs FROM jobs GROUP BY state, failure_message',
      )
      .all() as Array<{ state: string; reason: string | null; jobs: number }>;
    const done = rows.find((row) => row.state === 'done')?.jobs ?? 0;
    const summary = rows.map((row) => `${row.jobs} ${row.state}${row.reason ? ` (${row.reason})` : ''}`);
    return { status, done, summary: `batch ${status}: ${summary.join(', ')}` };
  } finally {
    db.close();
  }
}

/** The body a job's committed intent is sent as. */
function wireBody(job: Job): unknown {
  if (job.request === null) return null;
  return job.kind === 'shoot'
    ? shootRequest(job.request as ShootBody)
    : videoRequest(job.request as VideoBody);
}

let dir: string;
let sandbox: Child;
let sandboxUrl: string;
const apiKey = newKey();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-app-crash-'));
  const accounts = join(dir, 'accounts.json');
  await writeFile(
    accounts,
    JSON.stringify({
      accounts: [{ name: 'Sandbox', type: 'personal', credits: 5000, keys: [{ key: apiKey }] }],
    }),
  );
  sandbox = startChild([
    ADBATCH_BIN,
    'sandbox',
    '--port',
    '0',
    '--accounts',
    accounts,
    '--time-scale',
    String(TIME_SCALE),
    '--rate-limit',
    `60/${(60 * TIME_SCALE).toFixed(3)}s`,
    '--video-renderer',
    'bundled',
  ]);
  sandboxUrl = (await sandbox.waitFor(/Sandbox listening on (\S+)/))[1]!;
});

afterAll(async () => {
  killChildren();
  await rm(dir, { recursive: true, force: true });
});

describe('the app killed at random moments, started again each time', () => {
  it(`runs ${PRODUCTS} products (shoot + video each) without paying twice or losing a result`, async () => {
    console.log(`app crash test: seed ${SEED} (replay with ADBATCH_CRASH_SEED=${SEED})`);
    const random = seededRandom(String(SEED));
    const context = `seed ${SEED}`;
    const products = join(dir, 'products');
    await makeProductFolders(products, PRODUCTS);
    const coreDir = join(dir, 'core');
    const dbFile = join(coreDir, 'data', 'adbatch.db');
    const startCore = (first: boolean) =>
      startChild([
        '--import',
        'tsx',
        CORE_PROCESS,
        '--dir',
        coreDir,
        '--sandbox-url',
        sandboxUrl,
        '--sandbox-key',
        apiKey,
        '--time-scale',
        String(TIME_SCALE),
        ...(first ? ['--products', products] : []),
      ]);

    const started = Date.now();
    let core = startCore(true);
    await core.waitFor(/^ready /m);
    const kills: string[] = [];
    for (let round = 1; round <= KILLS; round++) {
      const after = Math.round(random.range(KILL_AFTER_MS.min, KILL_AFTER_MS.max));
      await sleep(after);
      await core.kill();
      const left = batchOnDisk(dbFile);
      expect(left.status, `${context}: kill ${round} came after the batch ended`).not.toBe('finished');
      const spawnedAt = Date.now();
      core = startCore(false);
      await core.waitFor(/^ready /m);
      kills.push(
        `${after} ms after ready (${left.done} jobs done; ready again in ${Date.now() - spawnedAt} ms)`,
      );
    }
    const killPhaseMs = Date.now() - started;
    try {
      await core.waitFor(/^finished /m);
    } catch (error) {
      await core.kill();
      throw new Error(`${context}: ${batchOnDisk(dbFile).summary}\n${(error as Error).message}`);
    }
    core.process.kill('SIGTERM');
    expect(await core.exited, core.output()).toBe(0);
    console.log(
      `app crash test: seed ${SEED}, kills ${kills.join('; ')}; kills over after ${killPhaseMs} ms, batch finished after ${Date.now() - started} ms`,
    );

    const store = new QueueStore(openDatabase(dbFile), Date.now);
    try {
      const [batch] = store.batches.all();
      const jobs = store.jobs.ofBatch(batch!.id);
      expect(jobs).toHaveLength(PRODUCTS * 2);
      const client = new SandboxClient(sandboxUrl);
      const log = await client.requestLog();
      expect(
        log.filter((entry) => entry.status === 429),
        `${context}: the request budget held across kills`,
      ).toEqual([]);

      // At most one accepted POST per intent, by the service's own log: every create it accepted is the
      // intent (the exact body) one job committed before sending, and no job's intent was accepted twice.
      const creates = log.filter(
        (entry) => entry.method === 'POST' && (entry.path === '/v1/shoots' || entry.path === '/v1/videos'),
      );
      const accepted = creates.filter((entry) => entry.status === null || entry.status < 400);
      const acceptedPerJob = new Map<string, number>();
      for (const post of accepted) {
        const kind = post.path === '/v1/shoots' ? 'shoot' : 'video';
        const owners = jobs.filter((job) => job.kind === kind && isDeepStrictEqual(wireBody(job), post.body));
        expect(owners, `${context}: ${post.path} at ${post.at} is no one job's intent`).toHaveLength(1);
        acceptedPerJob.set(owners[0]!.id, (acceptedPerJob.get(owners[0]!.id) ?? 0) + 1);
      }
      expect(
        [...acceptedPerJob].filter(([, count]) => count > 1),
        `${context}: intents created twice`,
      ).toEqual([]);
      expect(jobs.filter((job) => job.posts > 1).map((job) => job.id)).toEqual([]);

      // What the service made: one job per accepted create, each known to Adbatch by its id unless a kill
      // fell between sending its create and recording the answer. Nothing it completed is marked failed.
      const remote = new Map((await client.jobs()).map((made) => [made.id, made]));
      expect(remote.size, context).toBe(accepted.length);
      for (const job of jobs.filter((candidate) => candidate.remoteId)) {
        const made = remote.get(job.remoteId!);
        expect(made, `${context}: ${job.kind} ${job.id} is not on the service`).toBeDefined();
        if (made!.status === 'completed') expect(job.state, `${context}: ${job.kind} ${job.id}`).toBe('done');
      }

      // Every job ended done, except what waits for the user's decision: a job whose create a kill
      // interrupted (created at most once, by the check above), and a video waiting for such a shoot.
      const byId = new Map(jobs.map((job) => [job.id, job]));
      for (const job of jobs) {
        const what = `${context}: ${job.kind} ${job.id} ${job.state} ${job.failureMessage ?? ''}`;
        if (job.state === 'done') continue;
        if (job.state === 'outcome_unknown') {
          expect(job.failureCode, what).toBe('interrupted');
          expect(job.remoteId, what).toBeNull();
        } else {
          expect(job.state, what).toBe('skipped');
          expect(byId.get(job.afterJobId!)?.state, what).toBe('outcome_unknown');
        }
      }
      const done = jobs.filter((job) => job.state === 'done').length;
      expect(done, `${context}: most jobs done, so the run proves something`).toBeGreaterThan(
        jobs.length / 2,
      );
      const unknown = jobs.filter((job) => job.state === 'outcome_unknown');
      const unknownCreated = remote.size - jobs.filter((job) => job.remoteId).length;
      expect(
        unknownCreated,
        `${context}: jobs on the service that Adbatch does not know`,
      ).toBeLessThanOrEqual(unknown.length);
      console.log(
        `app crash test: seed ${SEED}: ${accepted.length} creates accepted, ${done} jobs done, ${unknown.length} waiting for a decision (${unknownCreated} of them created)`,
      );

      // Every result present and verified; no partial file left behind; the database whole.
      expect(await verifyDownloads(store, batch!.id)).toBe(store.assets.ofBatch(batch!.id).length);
      expect(store.assets.ofBatch(batch!.id).every((asset) => asset.state === 'done')).toBe(true);
      expect((await listFiles(batch!.libraryDir)).filter((file) => file.endsWith('.part'))).toEqual([]);
      expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      store.db.close();
    }
  }, 180_000);
});
