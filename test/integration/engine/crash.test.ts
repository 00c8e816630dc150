import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { openDatabase } from '../../../src-main/core/db/open.ts';
import { QueueStore } from '../../../src-main/core/queue/store.ts';
import { seededRandom } from '../../../src-main/sandbox/render/random.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { type Child, killChildren, startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN } from '../../support/cli.ts';
import { listFiles, verifyDownloads } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// Guarantee 1 and 2: killing the process at any instant never causes a second POST for the same intent,
// and after restarts every job is followed to its end and every result is downloaded and verified.
// ADBATCH_CRASH_SEED=<seed> replays the kill times of a run (the seed is printed).

const SEED = process.env.ADBATCH_CRASH_SEED ? Number(process.env.ADBATCH_CRASH_SEED) : randomInt(2 ** 31);
const PRODUCTS = 20;
const KILLS = 10;

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-crash-'));
  sandbox = await startSandbox({ timeScale: 0.025, rateLimit: '60/3s', videoRenderer: 'bundled' });
});

afterAll(async () => {
  killChildren();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], apiKey: string): Child {
  return startChild([ADBATCH_BIN, ...args], { ...process.env, ADBATCH_API_KEY: apiKey });
}

describe('crash test: SIGKILL at random moments, resumed each time', () => {
  it(`runs ${PRODUCTS} products (shoot + video each) without paying twice or losing a result`, async () => {
    console.log(`engine crash test: seed ${SEED} (replay with ADBATCH_CRASH_SEED=${SEED})`);
    const random = seededRandom(String(SEED));
    const products = join(dir, 'products');
    await makeProductFolders(products, PRODUCTS);
    const apiKey = sandbox.accounts()[0]!.keys[0]!.key;
    const dataDir = join(dir, 'data');
    const library = join(dir, 'library');
    const common = ['--data-dir', dataDir, '--rate-limit', '60/3s'];

    const first = cli(
      [
        'run',
        products,
        '--base-url',
        sandbox.url,
        '--style',
        'classic',
        '--shots',
        '1',
        '--video',
        '5s/480p',
        '--yes',
        '--library',
        library,
        ...common,
      ],
      apiKey,
    );
    await first.waitFor(/Batch b_\w+ started/);
    let child = first;
    for (let kills = 0; kills < KILLS; kills++) {
      await sleep(random.range(200, 1400));
      await child.kill();
      child = cli(['resume', ...common], apiKey);
    }
    const code = await child.exited;
    // Needs you when a kill between a create's commit and its answer left its outcome unknown.
    expect([EXIT.ok, EXIT.partial, EXIT.needsYou], `seed ${SEED}\n${child.output()}`).toContain(code);

    const store = new QueueStore(openDatabase(join(dataDir, 'adbatch.db')), Date.now);
    const [batch] = store.batches.all();
    const jobs = store.jobs.ofBatch(batch!.id);
    expect(jobs).toHaveLength(PRODUCTS * 2);

    // At most one POST per intended job: the request log, by the photos (shoots) or shots (videos) sent.
    const posts = sandbox.requests().filter((entry) => entry.method === 'POST' && entry.status !== 429);
    const bySource = new Map<string, number>();
    for (const post of posts) {
      const body = post.body as { product_image_urls?: string[]; image_urls?: string[] };
      const source = JSON.stringify(body.product_image_urls ?? body.image_urls);
      bySource.set(source, (bySource.get(source) ?? 0) + 1);
    }
    expect([...bySource.values()].every((count) => count === 1)).toBe(true);
    expect(jobs.every((job) => job.posts <= 1)).toBe(true);

    // Every job ended, or waits for a decision with its reason.
    for (const job of jobs) {
      expect(['done', 'failed', 'outcome_unknown', 'skipped'], `${job.kind} ${job.id}`).toContain(job.state);
      if (job.state !== 'done') expect(job.failureMessage).toBeTruthy();
    }
    // Only a kill between committing an intent and recording its answer leaves a job unknown; a video
    // waits (skipped) only for such a shoot; nothing else fails.
    const byId = new Map(jobs.map((job) => [job.id, job]));
    for (const job of jobs) {
      if (job.state === 'outcome_unknown') expect(job.failureCode).toBe('interrupted');
      if (job.state === 'skipped') expect(byId.get(job.afterJobId!)?.state).toBe('outcome_unknown');
      expect(job.state, job.failureMessage ?? '').not.toBe('failed');
    }
    expect(jobs.filter((job) => job.state === 'done').length).toBeGreaterThan(PRODUCTS / 2);

    // Every result present and verified; no partial file left behind.
    expect(await verifyDownloads(store, batch!.id)).toBe(store.assets.ofBatch(batch!.id).length);
    expect((await listFiles(library)).filter((file) => file.endsWith('.part'))).toEqual([]);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    store.db.close();
  }, 240_000);
});
