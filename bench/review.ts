import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { SANDBOX_ACCOUNT_ID } from '../src-main/core/accounts/account-store.ts';
import { openDatabase } from '../src-main/core/db/open.ts';
import { batchFolder, productFolder } from '../src-main/core/library.ts';
import { QueueStore } from '../src-main/core/queue/store.ts';
import type { Batch } from '../src-main/core/queue/types.ts';
import {
  makePreview,
  type PreviewSize,
  previewPath,
  previewsDir,
  ResultPreviews,
} from '../src-main/core/review/previews.ts';
import { browserMissing } from '../test/e2e/browser.ts';
import { callCore, startCoreHarness } from '../test/support/core-harness.ts';
import { QUICK_SHOOT } from '../test/support/job-settings.ts';
import { percentile } from './page-frames.ts';
import { reviewInBrowser } from './review-browser.ts';
import { benchSize, writeResults } from './settings.ts';

// npm run bench:review (writes bench/results/review.json), the core's half of issue 12's "fast on big
// batches", in one run:
//  1. previews: the time to make one result's grid and screen previews (sharp, as the download path makes
//     them), on distinct originals of BENCH_ORIGINAL_EDGE px (2048) and of 4K;
//  2. review:get: a finished batch of BENCH_REVIEW_PRODUCTS (2,000) products with 4 shots each (8,000
//     results, every one a real JPEG on disk with its two previews), the whole batch answered through the
//     core's dispatch, as the renderer asks for it;
//  3. review:decide: a decision on one result, answered once committed to SQLite; target p95 < 10 ms.
// The batch is written straight into the database the way the engine leaves it, as bench:ui seeds its
// library. Its 8,000 originals are hard links to a few distinct JPEGs (and its 16,000 previews to theirs),
// each recorded under a sha256 of its own: every path is a real image, without gigabytes of copies.
//  4. then, in Chromium on the browser harness, the Review view itself on that batch (review-browser.ts):
//     first render, the grid scrolled end to end, a decision on screen, the loupe's next result. Skipped,
//     with the reason, where Chromium is missing.
// Targets (issue 12, point 4): first render < 500 ms; grid frame work p95 < 8 ms; loupe next shown p95 <
// 50 ms; a decision on screen within one frame and committed p95 < 10 ms.
// BENCH_SHORT=1: 100 products (a grid still tall enough to scroll), a few samples of each figure.

const PRODUCTS = benchSize('BENCH_REVIEW_PRODUCTS', 2000, 100);
const SHOTS = 4;
/** Guess: the service's shots are about 2K on the long edge; the 4K sample shows the worst case. */
const ORIGINAL_EDGE = benchSize('BENCH_ORIGINAL_EDGE', 2048, 2048);
const PREVIEW_SAMPLE = benchSize('BENCH_PREVIEW_SAMPLE', 40, 3);
const PREVIEW_SAMPLE_4K = benchSize('BENCH_PREVIEW_SAMPLE_4K', 10, 1);
const DISTINCT_ORIGINALS = benchSize('BENCH_REVIEW_ORIGINALS', 8, 2);
const GET_RUNS = benchSize('BENCH_REVIEW_GETS', 10, 2);
const DECISIONS = benchSize('BENCH_REVIEW_DECISIONS', 300, 20);

const round1 = (value: number) => Math.round(value * 10) / 10;
const summary = (values: number[]) => ({
  runs: values.length,
  p50: round1(percentile(values, 50)),
  p95: round1(percentile(values, 95)),
  max: round1(Math.max(...values)),
});

/** A photo-like JPEG: smooth colour fields from random noise, different for every call. */
async function originalJpeg(file: string, width: number, height: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const cells = randomBytes(24 * 24 * 3);
  await sharp(cells, { raw: { width: 24, height: 24, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .jpeg({ quality: 90 })
    .toFile(file);
}

async function time(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Per result: grid, screen, and both as ResultPreviews makes them after a download. */
async function previewTimes(dir: string, count: number, width: number, height: number) {
  const grid: number[] = [];
  const screen: number[] = [];
  const both: number[] = [];
  const previews = new ResultPreviews(join(dir, 'timed'), { warn: (line) => console.warn(line) });
  for (let n = 0; n < count; n++) {
    const original = join(dir, `${width}x${height}`, `${n}.jpg`);
    await originalJpeg(original, width, height);
    const sha256 = randomBytes(32).toString('hex');
    both.push(await time(() => previews.ensure(original, sha256)));
    grid.push(await time(() => makePreview(original, join(dir, 'g', `${n}.jpg`), 'grid')));
    screen.push(await time(() => makePreview(original, join(dir, 's', `${n}.jpg`), 'screen')));
  }
  return {
    original: `${width}x${height}`,
    grid: summary(grid),
    screen: summary(screen),
    both: summary(both),
  };
}

/** A finished batch of PRODUCTS products, SHOTS shots each, downloaded, with their previews. */
async function seedBatch(dir: string): Promise<Batch> {
  const dataDir = join(dir, 'data');
  const libraryDir = join(dir, 'library');
  await mkdir(dataDir, { recursive: true });

  // A few distinct originals with their previews, linked to from every result.
  const bases: Array<{ original: string } & Record<PreviewSize, string>> = [];
  const baseDir = join(dir, 'bases');
  const baseCache = new ResultPreviews(join(baseDir, 'cache'), { warn: (line) => console.warn(line) });
  for (let n = 0; n < DISTINCT_ORIGINALS; n++) {
    const original = join(baseDir, `${n}.jpg`);
    await originalJpeg(original, ORIGINAL_EDGE, Math.round((ORIGINAL_EDGE * 4) / 5));
    const sha256 = randomBytes(32).toString('hex');
    await baseCache.ensure(original, sha256);
    bases.push({ original, grid: baseCache.path('grid', sha256), screen: baseCache.path('screen', sha256) });
  }

  const db = openDatabase(join(dataDir, 'adbatch.db'));
  const store = new QueueStore(db, Date.now);
  const batch = store.createBatch({
    name: 'Review bench',
    accountId: SANDBOX_ACCOUNT_ID,
    baseUrl: 'sandbox',
    keyId: 'bench',
    keyHint: '…0000',
    sandbox: true,
    libraryDir,
    shoot: { ...QUICK_SHOOT, shots: SHOTS },
    video: null,
    products: Array.from({ length: PRODUCTS }, (_, n) => ({
      name: `Product ${n + 1}`,
      sourceDir: join(dir, 'in', String(n)),
      photos: [{ path: join(dir, 'in', String(n), '1.jpg'), url: null }],
    })),
  });
  const products = db
    .prepare<[string], { job_id: string; name: string; position: number }>(
      `SELECT j.id AS job_id, p.name, p.position FROM jobs j JOIN products p ON p.id = j.product_id
       WHERE j.batch_id = ? ORDER BY p.position`,
    )
    .all(batch.id);
  const cache = previewsDir(dataDir);
  const results: Array<{
    jobId: string;
    idx: number;
    path: string;
    sha256: string;
    base: (typeof bases)[0];
  }> = [];
  for (const product of products) {
    for (let idx = 0; idx < SHOTS; idx++) {
      results.push({
        jobId: product.job_id,
        idx,
        path: `${batchFolder(batch)}/${productFolder(product)}/shot-${idx + 1}.jpg`,
        sha256: randomBytes(32).toString('hex'),
        base: bases[results.length % bases.length]!,
      });
    }
  }
  for (const result of results) {
    const original = join(libraryDir, result.path);
    await mkdir(dirname(original), { recursive: true });
    await link(result.base.original, original);
    for (const size of ['grid', 'screen'] as const) {
      const preview = previewPath(cache, size, result.sha256);
      await mkdir(dirname(preview), { recursive: true });
      await link(result.base[size], preview);
    }
  }
  db.transaction(() => {
    db.prepare(
      `UPDATE jobs SET state = 'done', remote_id = 'shoot_' || id, remote_status = 'completed',
         credits_charged = price, accepted_at = created_at, finished_at = created_at + 30000
       WHERE batch_id = ?`,
    ).run(batch.id);
    const insert = db.prepare(
      `INSERT INTO assets (job_id, kind, idx, url, path, state, bytes, sha256, attempts)
       VALUES (?, 'image', ?, ?, ?, 'done', 1, ?, 1)`,
    );
    for (const result of results) {
      insert.run(
        result.jobId,
        result.idx,
        `https://results.invalid/${result.sha256}.jpg`,
        result.path,
        result.sha256,
      );
    }
    db.prepare("UPDATE batches SET status = 'finished' WHERE id = ?").run(batch.id);
  })();
  db.close();
  return batch;
}

const dir = await mkdtemp(join(tmpdir(), 'adbatch-bench-review-'));
try {
  const previews = [
    await previewTimes(
      join(dir, 'sample'),
      PREVIEW_SAMPLE,
      ORIGINAL_EDGE,
      Math.round((ORIGINAL_EDGE * 4) / 5),
    ),
    await previewTimes(join(dir, 'sample'), PREVIEW_SAMPLE_4K, 3840, 2160),
  ];
  for (const sample of previews) {
    console.log(
      `previews of a ${sample.original} original: grid p50 ${sample.grid.p50} ms, screen p50 ${sample.screen.p50} ms, both p50 ${sample.both.p50} / p95 ${sample.both.p95} ms`,
    );
  }

  const seedStart = performance.now();
  const batch = await seedBatch(dir);
  console.log(`seeded ${PRODUCTS * SHOTS} results in ${Math.round(performance.now() - seedStart)} ms`);

  let core: Record<string, unknown>;
  const h = await startCoreHarness({ dir });
  try {
    const firstStart = performance.now();
    const first = await callCore(h.core, 'review:get', { batchId: batch.id });
    const firstMs = performance.now() - firstStart;
    const fellBack = first.items.filter((item) => item.gridUrl === item.url).length;
    if (first.items.length !== PRODUCTS * SHOTS || fellBack > 0) {
      throw new Error(`review:get answered ${first.items.length} items, ${fellBack} without their previews`);
    }
    const gets: number[] = [];
    for (let run = 0; run < GET_RUNS; run++) {
      gets.push(await time(() => callCore(h.core, 'review:get', { batchId: batch.id })));
    }
    const bytes = Buffer.byteLength(JSON.stringify(first));
    console.log(
      `review:get of ${first.items.length} results (${Math.round(bytes / 1024)} kB): first ${Math.round(firstMs)} ms, then p50 ${round1(percentile(gets, 50))} / p95 ${round1(percentile(gets, 95))} ms`,
    );

    const decisions: number[] = [];
    const changes = [
      { flag: 'picked' },
      { stars: 3 },
      { flag: 'rejected' },
      { flag: null, stars: 0 },
    ] as const;
    for (let n = 0; n < DECISIONS; n++) {
      const item = first.items[(n * 7919) % first.items.length]!;
      const change = changes[n % changes.length]!;
      decisions.push(
        await time(() =>
          callCore(h.core, 'review:decide', { batchId: batch.id, resultIds: [item.id], change }),
        ),
      );
    }
    console.log(
      `review:decide on one result, committed: p50 ${round1(percentile(decisions, 50))} / p95 ${round1(percentile(decisions, 95))} ms`,
    );

    core = {
      previewsPerResultMs: previews,
      reviewGet: { firstMs: round1(firstMs), ...summary(gets), answerKiB: Math.round(bytes / 1024) },
      reviewDecideCommittedMs: summary(decisions),
    };
  } finally {
    await h.close();
  }

  const missing = browserMissing();
  if (missing) console.warn(`bench:review: the Review view's figures skipped: ${missing}`);
  const ui = missing ? null : await reviewInBrowser(dir, batch.name, PRODUCTS * SHOTS);
  const decideP95 = (core.reviewDecideCommittedMs as { p95: number }).p95;
  const targets = {
    firstRenderMaxMs: 500,
    gridFrameWorkP95MaxMs: 8,
    loupeNextShownP95MaxMs: 50,
    decisionOnScreenMaxFrames: 1,
    decideCommittedP95MaxMs: 10,
  };
  const met = {
    decideCommitted: decideP95 < targets.decideCommittedP95MaxMs,
    ...(ui && {
      firstRender: ui.firstRender.maxMs < targets.firstRenderMaxMs,
      gridFrameWork: ui.gridScroll.frameWorkMs.p95 < targets.gridFrameWorkP95MaxMs,
      loupeNext: ui.loupeNext.shownMs.p95 < targets.loupeNextShownP95MaxMs,
      decisionOnScreen: ui.decisionOnScreen.framesMax <= targets.decisionOnScreenMaxFrames,
      /** As counted before (review-browser.ts says why that count was wrong). */
      decisionOnScreenAsBefore: ui.decisionOnScreen.asBefore.framesMax <= targets.decisionOnScreenMaxFrames,
    }),
  };
  const result = {
    batch: { products: PRODUCTS, shotsPerProduct: SHOTS, results: PRODUCTS * SHOTS },
    ...core,
    ui: ui ?? { skipped: missing },
    targets,
    met,
    machine: { cpus: cpus().length, node: process.version },
  };
  const written = await writeResults('review', result);

  const verdict = (ok: boolean | undefined) => (ok === undefined ? 'skipped' : ok ? 'met' : 'MISSED');
  const rows: Array<[string, string, string, boolean | undefined]> = [
    [
      'first render (click to tiles with images)',
      ui ? `${ui.firstRender.runs.map((run) => run.paintedMs).join(' / ')} ms` : '-',
      '< 500 ms',
      met.firstRender,
    ],
    [
      'grid scroll, frame work',
      ui ? `p95 ${ui.gridScroll.frameWorkMs.p95} ms, max ${ui.gridScroll.frameWorkMs.max} ms` : '-',
      'p95 < 8 ms',
      met.gridFrameWork,
    ],
    [
      'loupe next, decoded / shown',
      ui
        ? `p50 ${ui.loupeNext.decodedMs.p50} / ${ui.loupeNext.shownMs.p50} ms, p95 ${ui.loupeNext.decodedMs.p95} / ${ui.loupeNext.shownMs.p95} ms`
        : '-',
      'shown p95 < 50 ms',
      met.loupeNext,
    ],
    [
      'loupe next, painted (Element Timing)',
      ui ? `p50 ${ui.loupeNext.paintedMs.p50} ms, p95 ${ui.loupeNext.paintedMs.p95} ms` : '-',
      '',
      undefined,
    ],
    [
      'decision on screen',
      ui
        ? `${ui.decisionOnScreen.withinOneFrame} of ${ui.decisionOnScreen.decisions} in 1 frame (max ${ui.decisionOnScreen.framesMax}; counted as before ${ui.decisionOnScreen.asBefore.withinOneFrame}, max ${ui.decisionOnScreen.asBefore.framesMax}), p95 ${ui.decisionOnScreen.toFrameEndMs.p95} ms`
        : '-',
      '1 frame',
      met.decisionOnScreen,
    ],
    [
      'decision saved on screen (busy mark gone)',
      ui
        ? `p50 ${ui.decisionOnScreen.savedOnScreenMs.p50} / p95 ${ui.decisionOnScreen.savedOnScreenMs.p95} ms`
        : '-',
      '',
      undefined,
    ],
    ['decision committed', `p95 ${decideP95} ms`, 'p95 < 10 ms', met.decideCommitted],
  ];
  console.table(
    Object.fromEntries(
      rows.map(([what, figure, target, ok]) => [
        what,
        { figure, target, verdict: target ? verdict(ok) : '(figure only)' },
      ]),
    ),
  );
  console.log(`${written} written`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
