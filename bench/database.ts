import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { SANDBOX_ACCOUNT_ID } from '../src-main/core/accounts/account-store.ts';
import { DatabaseBackups } from '../src-main/core/db/backups.ts';
import { checkDatabaseFile, quickCheck } from '../src-main/core/db/check.ts';
import { databaseFile, openDatabase } from '../src-main/core/db/open.ts';
import { QueueStore } from '../src-main/core/queue/store.ts';
import { percentile } from './page-frames.ts';
import { benchSize, writeResults } from './settings.ts';

// npm run bench:database: what refusing a damaged database costs (issue 27, point 7). A data folder whose
// database holds BENCH_DATABASE_JOBS (1,000) finished shoots, each with its 4 results and 4 thumbnails
// downloaded, as the engine leaves them; then, RUNS times each: the database opened as createCore opens it
// (quick_check on a read-only connection, then opened for writing and migrated), the check's part of it,
// quick_check alone, integrity_check for comparison, and the automatic backup a batch's start takes (the
// online backup API, the copy checked), with the event loop's longest stall during it.
// Writes bench/results/database.json.

const JOBS = benchSize('BENCH_DATABASE_JOBS', 1000, 20);
const RUNS = benchSize('BENCH_RUNS', 7, 2);
const SHOTS = 4;

const round1 = (value: number) => Math.round(value * 10) / 10;
const summary = (values: number[]) => ({
  runs: values.length,
  p50: round1(percentile(values, 50)),
  max: round1(Math.max(...values)),
});

function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** A finished batch of JOBS shoots written through the store, as the engine records one. */
function seed(file: string): void {
  const db = openDatabase(file);
  let now = Date.UTC(2025, 0, 15, 9);
  const store = new QueueStore(db, () => now);
  const batch = store.createBatch({
    name: 'Bench',
    accountId: SANDBOX_ACCOUNT_ID,
    baseUrl: 'sandbox',
    keyId: 'key-bench',
    keyHint: 'sk_…bench',
    sandbox: true,
    libraryDir: '/library',
    shoot: {
      style: 'classic',
      shots: SHOTS,
      quality: 'standard',
      aspectRatio: '1:1',
      mode: 'product_only',
      modelUrl: null,
      backgroundColor: null,
    },
    video: null,
    products: Array.from({ length: JOBS }, (_, index) => ({
      name: `Product ${index + 1}`,
      sourceDir: `/photos/product-${index + 1}`,
      photos: [1, 2, 3].map((n) => ({
        path: `/photos/product-${index + 1}/${n}.jpg`,
        url: null,
        hash: `${index}`.padStart(64, String(n)),
      })),
    })),
  });
  for (const job of store.jobs.ofBatch(batch.id)) {
    store.jobs.beginSubmit(job.id, { style: 'classic', shots: SHOTS });
    store.jobs.acceptSubmit(job.id, {
      remoteId: `shoot_${job.id}`,
      remoteStatus: 'queued',
      credits: job.price,
      balanceAfter: null,
      deadlineAt: now + 600_000,
      nextPollAt: now + 5_000,
    });
    now += 1_000;
    store.jobs.recordPoll(job.id, 'processing', now + 5_000);
    const folder = `Bench (${batch.id.slice(-6)})/${job.id}`;
    store.jobs.completeRemote(
      job.id,
      'completed',
      Array.from({ length: SHOTS }, (_, idx) => [
        {
          kind: 'image' as const,
          idx,
          url: `https://cdn.invalid/${job.id}/${idx}.jpg`,
          path: `${folder}/shot-${idx + 1}.jpg`,
        },
        {
          kind: 'thumbnail' as const,
          idx,
          url: `https://cdn.invalid/${job.id}/${idx}-thumb.jpg`,
          path: `${folder}/thumbnails/shot-${idx + 1}.jpg`,
        },
      ]).flat(),
    );
    for (const asset of store.assets.ofJob(job.id))
      store.assets.downloaded(asset.id, 2_000_000, 'a'.repeat(64));
  }
  db.close();
}

/** The loop's longest stall while `work` runs, in ms (the monitor's resolution is 10 ms). */
async function loopStall(work: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  await work();
  delay.disable();
  return delay.max / 1e6;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adbatch-bench-db-'));
  try {
    const file = databaseFile(dataDir);
    seed(file);
    const bytes = (await stat(file)).size;
    const opened: number[] = [];
    const checked: number[] = [];
    const quick: number[] = [];
    const integrity: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      opened.push(timed(() => openDatabase(file).close()));
      checked.push(timed(() => checkDatabaseFile(file, { backedUp: true })));
      const db = new Database(file, { readonly: true });
      quick.push(timed(() => quickCheck(db)));
      integrity.push(timed(() => db.pragma('integrity_check')));
      db.close();
    }
    const db = openDatabase(file);
    let now = Date.now();
    const backups = new DatabaseBackups(db, dataDir, () => (now += 1_000));
    const backup: number[] = [];
    const stalls: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      stalls.push(await loopStall(() => backups.take()));
      backup.push(performance.now() - start);
    }
    db.close();
    const result = {
      jobs: JOBS,
      results: JOBS * SHOTS * 2,
      databaseMb: round1(bytes / 1e6),
      /** openDatabase as createCore calls it, and the part of it that is the check (check.ts). */
      openMs: summary(opened),
      openCheckMs: summary(checked),
      quickCheckMs: summary(quick),
      integrityCheckMs: summary(integrity),
      backupMs: summary(backup),
      backupLoopStallMs: summary(stalls),
      machine: {
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
      },
    };
    await writeResults('database', result);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
