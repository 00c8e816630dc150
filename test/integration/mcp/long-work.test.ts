import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREFLIGHT_WARNINGS } from '../../../src-main/shared/vocabulary.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { type McpInProcess, startMcpInProcess } from '../../support/mcp-in-process.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { untilValue } from '../../support/until.ts';

// Long work over MCP (issue 30, point 3), the SDK's own client on a real core with the embedded Sandbox:
// a batch followed to its end with progress notifications, an export that answers at once with what to poll
// (export_status, followed to its end), and an export whose call the client cancels: stopped, not left to run;
// what an export leaves out, answered as `leftOut` (issue 31); and what its plan says before writing, as `notices`.

let h: CoreHarness;
let mcp: McpInProcess;

beforeAll(async () => {
  h = await startCoreHarness();
  mcp = await startMcpInProcess(h, 'Long agent');
}, 30_000);
afterAll(async () => {
  await mcp?.client.close();
  await h?.close();
});

const tool: McpInProcess['tool'] = (name, args, options) => mcp.tool(name, args, options);

/** Every shot of a finished batch, 12 of them: 36 files in three recipes, enough to be caught running. */
let exportedBatch: string;
const everything = (folder: string) => ({
  batchId: exportedBatch,
  folder: join(mcp.exports, folder),
  recipes: ['shopify', 'web', 'instagram-feed'],
  rule: 'not-rejected',
  // The sandbox's shots are small for these channels: written anyway, so every planned file is one.
  acceptWarnings: [...PREFLIGHT_WARNINGS],
});

describe('long work over MCP', () => {
  beforeAll(async () => {
    exportedBatch = await finishedBatch(h.core, {
      inputs: await makeProductFolders(join(h.dir, 'export-products'), 3),
      name: 'To export',
      shoot: { ...QUICK_SHOOT, shots: 4 },
    });
  }, 120_000);

  it('follows a batch to its end, reporting its jobs done as progress', async () => {
    const scan = await callCore(h.core, 'ingest:scan', {
      inputs: await makeProductFolders(join(h.dir, 'waited'), 3),
    });
    const batch = await callCore(h.core, 'batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Waited for',
    });
    const seen: Progress[] = [];
    const waited = await untilValue(async () => {
      const answer = await tool(
        'wait_batch',
        { batchId: batch.id },
        { onprogress: (progress) => seen.push(progress) },
      );
      return answer.status === 'finished' ? answer : null;
    });
    expect(waited).toMatchObject({
      batchId: batch.id,
      status: 'finished',
      running: false,
      jobs: 3,
      done: 3,
      poll: { tool: 'batch_status', arguments: { batchId: batch.id } },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toMatchObject({ progress: 3, total: 3, message: '3 of 3 jobs done' });
    for (const [at, progress] of seen.entries()) {
      expect(progress.progress).toBeGreaterThanOrEqual(seen[at - 1]?.progress ?? 0);
    }
  }, 120_000);

  it('answers a long export at once with export_status to poll, which follows it to its end', async () => {
    const started = await tool('export_batch', { ...everything('polled'), waitSeconds: 0 });
    expect(started).toMatchObject({
      state: 'running',
      poll: { tool: 'export_status', arguments: { exportId: started.exportId } },
    });
    const seen: Progress[] = [];
    const ended = await untilValue(async () => {
      const now = await tool(
        'export_status',
        { exportId: started.exportId, waitSeconds: 45 },
        { onprogress: (progress) => seen.push(progress) },
      );
      return now.state === 'running' ? null : now;
    });
    expect(ended).toMatchObject({ state: 'done', done: 36, total: 36, written: 36, failed: 0 });
    expect(ended.poll).toBeUndefined();
    expect(ended.files).toHaveLength(36);
    expect(seen.at(-1)).toMatchObject({ progress: 36, total: 36 });
  }, 120_000);

  it('stops the export it started when the client cancels the call', async () => {
    const controller = new AbortController();
    const calling = tool('export_batch', everything('cancelled'), {
      onprogress: () => controller.abort(),
      signal: controller.signal,
    });
    await expect(calling).rejects.toThrow(/abort/i);
    const [exported] = (await callCore(h.core, 'export:list')).filter(
      (one) => one.destination === join(mcp.exports, 'cancelled'),
    );
    const ended = await untilValue(async () => {
      const now = await tool('export_status', { exportId: exported!.id });
      return now.state === 'running' ? null : now;
    });
    expect(ended).toMatchObject({ state: 'cancelled' });
    expect(ended.written as number).toBeLessThan(36);
  }, 120_000);

  it('keeps an export two calls follow when one of them is cancelled: the other sees it to its end', async () => {
    // An agent's retry while its first call still waits: one export, one run; then the first call given up.
    const controller = new AbortController();
    let firstFollows!: () => void;
    let retryFollows!: () => void;
    const following = [
      new Promise<void>((resolve) => {
        firstFollows = resolve;
      }),
      new Promise<void>((resolve) => {
        retryFollows = resolve;
      }),
    ];
    const first = tool('export_batch', everything('retried'), {
      onprogress: () => firstFollows(),
      signal: controller.signal,
    });
    await following[0];
    const retry = tool(
      'export_batch',
      { ...everything('retried'), waitSeconds: 45 },
      { onprogress: () => retryFollows() },
    );
    await following[1];
    controller.abort();
    await expect(first).rejects.toThrow(/abort/i);
    const ended = await retry;
    expect(ended).toMatchObject({ state: 'done', written: 36, failed: 0 });
    const runs = (await callCore(h.core, 'export:list')).filter(
      (one) => one.destination === join(mcp.exports, 'retried'),
    );
    expect(runs.map((one) => one.id)).toEqual([ended.exportId]);
  }, 120_000);

  it('answers what the export leaves out, in the words the app and the CLI use', async () => {
    const [first] = (await callCore(h.core, 'review:get', { batchId: exportedBatch })).items;
    await pickResults(h.core, exportedBatch, [first!.id]);
    const answer = await tool('export_batch', {
      batchId: exportedBatch,
      folder: join(mcp.exports, 'picked-one'),
    });
    expect(answer).toMatchObject({
      state: 'done',
      written: 1,
      leftOut: ['11 photos not picked are not exported'],
    });
  }, 120_000);

  it("answers what the export's plan says before writing, as the app's dialog and the CLI say it", async () => {
    // A SKU with dashes, and a UPC whose leading zero a spreadsheet dropped: both go into Amazon's names.
    const sheet = await callCore(h.core, 'products:sheet', { batchId: exportedBatch });
    const [hat, tea, jar] = sheet.rows;
    await callCore(h.core, 'products:update', {
      batchId: exportedBatch,
      changes: [
        { productId: hat!.id, field: 'sku', value: 'HAT-001' },
        { productId: tea!.id, field: 'sku', value: '36000291452' },
        { productId: jar!.id, field: 'sku', value: 'JAR7' },
      ],
    });
    const request = {
      batchId: exportedBatch,
      folder: join(mcp.exports, 'amazon'),
      recipes: ['amazon-main'],
      rule: 'not-rejected',
      acceptWarnings: [...PREFLIGHT_WARNINGS],
    };
    const plan = await callCore(h.core, 'export:plan', {
      scope: { batchIds: [exportedBatch] },
      recipes: request.recipes,
      destination: request.folder,
      selection: { rule: 'not-rejected', minStars: 0 },
      acceptWarnings: request.acceptWarnings,
    });
    const answer = await tool('export_batch', request);
    expect(answer).toMatchObject({ state: 'done', failed: 0 });
    expect(answer.notices).toEqual(plan.notices);
    expect(answer.notices).toEqual([
      "Amazon's file names hold SKUs without dashes or spaces, as Amazon asks: HAT-001 as HAT001.",
      expect.stringMatching(
        /^1 SKU has 11 digits, one short of a UPC, and reads as one with a 0 before: .* \(36000291452, as a UPC 036000291452\)\. /,
      ),
    ]);
  }, 120_000);
});
