import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_ACCOUNT_ID } from '../src-main/core/accounts/account-store.ts';
import { openDatabase } from '../src-main/core/db/open.ts';
import { QueueStore } from '../src-main/core/queue/store.ts';
import { browserMissing, launchChromium, UNCAPPED_FRAMES } from '../test/e2e/browser.ts';
import { startAppServer } from '../test/harness/app-server.ts';
import { QUICK_SHOOT } from '../test/support/job-settings.ts';
import { makeProductFolders } from '../test/support/product-folders.ts';
import { percentile, scrollFrames } from './page-frames.ts';
import { benchSize, writeResults } from './settings.ts';

// npm run bench:ui (writes bench/results/ui.json), in Debian's Chromium on the browser harness:
//  1. live: a batch of BENCH_LIVE_PRODUCTS (2,000) products runs in the sandbox while the Batch screen's
//     product list is scrolled end to end; the renderer's work per frame must stay at p95 < 16 ms
//     (virtualised lists; see scrollFrames in page-frames.ts for how a frame's work is measured);
//  2. library: BENCH_LIBRARY_JOBS (100,000) finished jobs in the database; the Batches screen must show
//     its first rows under 500 ms from navigation start.
// BENCH_SHORT=1: 200 live products (a list still tall enough to scroll: 64 px a compact row), 2,000 jobs, a
// 1 s scroll.

const LIVE_PRODUCTS = benchSize('BENCH_LIVE_PRODUCTS', 2000, 200);
const LIBRARY_JOBS = benchSize('BENCH_LIBRARY_JOBS', 100_000, 2000);
const PRODUCTS_PER_LIBRARY_BATCH = 1000;
const SCROLL_MS = benchSize('BENCH_UI_SCROLL_MS', 6000, 1000);

const round1 = (value: number) => Math.round(value * 10) / 10;

async function liveBatch() {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-bench-ui-live-'));
  const products = join(dir, 'products');
  await makeProductFolders(products, LIVE_PRODUCTS, 1);
  const app = await startAppServer({ dir, pick: [products], timeScale: 0.1 });
  const browser = await launchChromium(UNCAPPED_FRAMES);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(app.url);
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByTestId('quote-total').waitFor({ timeout: 300_000 });
    // One shot each: 2,000 credits, within the Sandbox account's 5,000.
    await page.getByRole('combobox', { name: 'Shots', exact: true }).selectOption('1');
    await page
      .getByRole('button', { name: `Start for ${LIVE_PRODUCTS.toLocaleString('en')} credits` })
      .click({ timeout: 60_000 });
    await page.getByTestId('batch-products').waitFor();
    // Let the batch get going: jobs running, results landing, progress events arriving.
    await page.waitForFunction(
      () => /^[1-9]\d* of/.test(document.querySelector('[data-testid="batch-progress"]')?.textContent ?? ''),
      null,
      {
        timeout: 300_000,
      },
    );
    // BENCH_AFTER_DONE=1 scrolls a finished batch instead: the same list without live work, for comparison.
    while (
      process.env.BENCH_AFTER_DONE &&
      !/^(\d+) of \1 jobs done/.test((await page.getByTestId('batch-progress').textContent()) ?? '')
    ) {
      await page.waitForTimeout(500);
    }
    const progressBefore = await page.getByTestId('batch-progress').textContent();
    const frames = await scrollFrames(page, 'batch-products', SCROLL_MS);
    const progressAfter = await page.getByTestId('batch-progress').textContent();
    return {
      products: LIVE_PRODUCTS,
      frames: frames.work.length,
      frameWorkMs: {
        p50: round1(percentile(frames.work, 50)),
        p95: round1(percentile(frames.work, 95)),
        max: round1(Math.max(...frames.work)),
      },
      frameIntervalMs: {
        p50: round1(percentile(frames.intervals, 50)),
        p95: round1(percentile(frames.intervals, 95)),
        max: round1(Math.max(...frames.intervals)),
      },
      progressBefore,
      progressAfter,
    };
  } finally {
    await browser.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A library of finished batches, written straight into the database the way the engine leaves them. */
async function seedLibrary(dir: string): Promise<number> {
  await mkdir(join(dir, 'data'), { recursive: true });
  const db = openDatabase(join(dir, 'data', 'adbatch.db'));
  const store = new QueueStore(db, Date.now);
  let jobs = 0;
  for (let index = 0; jobs < LIBRARY_JOBS; index++) {
    const count = Math.min(PRODUCTS_PER_LIBRARY_BATCH, LIBRARY_JOBS - jobs);
    const batch = store.createBatch({
      name: `Season ${index + 1}`,
      accountId: SANDBOX_ACCOUNT_ID,
      baseUrl: 'sandbox',
      keyId: 'bench',
      keyHint: '…0000',
      sandbox: true,
      libraryDir: join(dir, 'library'),
      shoot: QUICK_SHOOT,
      video: null,
      products: Array.from({ length: count }, (_, n) => ({
        name: `Product ${n + 1}`,
        sourceDir: join(dir, 'in', String(n)),
        photos: [{ path: join(dir, 'in', String(n), '1.jpg'), url: null }],
      })),
    });
    db.transaction(() => {
      db.prepare(
        `UPDATE jobs SET state = 'done', remote_id = 'shoot_' || id, remote_status = 'completed',
           credits_charged = price, accepted_at = created_at, finished_at = created_at + 30000
         WHERE batch_id = ?`,
      ).run(batch.id);
      // Each charge through the ledger's own writer: the entry's columns are the store's to know.
      for (const job of store.jobs.ofBatch(batch.id)) store.ledger.record(job.id, 'charge', job.price);
      db.prepare("UPDATE batches SET status = 'finished' WHERE id = ?").run(batch.id);
    })();
    jobs += count;
  }
  db.close();
  return jobs;
}

async function library() {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-bench-ui-library-'));
  const jobs = await seedLibrary(dir);
  const app = await startAppServer({ dir });
  const browser = await launchChromium();
  try {
    const runs: number[] = [];
    for (let run = 0; run < 3; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      await page.goto(app.url, { waitUntil: 'commit' });
      await page
        .getByRole('button', { name: /Season 1 / })
        .first()
        .waitFor({ timeout: 30_000 });
      // From the navigation's start to the list's first render, in the page's own clock (the screen marks it).
      const shown = await page.evaluate(
        `performance.getEntriesByName('adbatch:batches-shown')[0]?.startTime ?? -1`,
      );
      runs.push(Math.round(shown as number));
      await page.close();
    }
    return {
      jobs,
      batches: Math.ceil(jobs / PRODUCTS_PER_LIBRARY_BATCH),
      shownMs: runs,
      bestMs: Math.min(...runs),
    };
  } finally {
    await browser.close();
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const missing = browserMissing();
if (missing) {
  console.error(`bench:ui needs a browser: ${missing}`);
  process.exit(1);
}

const live = await liveBatch();
console.log(
  `live: ${live.products} products, ${live.frames} frames, frame work p95 ${live.frameWorkMs.p95} ms (max ${live.frameWorkMs.max} ms); frame interval p95 ${live.frameIntervalMs.p95} ms (headless pacing)`,
);
const lib = await library();
console.log(
  `library: ${lib.jobs} finished jobs in ${lib.batches} batches, Batches shown in ${lib.shownMs.join(' / ')} ms`,
);

const result = {
  live,
  library: lib,
  targets: { frameP95MaxMs: 16, libraryShownMaxMs: 500 },
  met: { frames: live.frameWorkMs.p95 < 16, library: Math.max(...lib.shownMs) < 500 },
  machine: { cpus: cpus().length, node: process.version },
};
const written = await writeResults('ui', result);
console.log(
  `targets: frame p95 < 16 ms ${result.met.frames ? 'met' : 'MISSED'}; Batches < 500 ms ${result.met.library ? 'met' : 'MISSED'}`,
);
console.log(`${written} written`);
