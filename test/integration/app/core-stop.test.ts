import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, callCore, finishedBatch, startCoreHarness } from '../../support/core-harness.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// Stopping core is asked for by more than one path at once (the app's quit and a signal during it; a CLI
// command's `finally` after `follow` has stopped it already): every stop after the first waits for the
// first, and none writes a manifest to the database the first one closed.

let h: CoreHarness;

beforeAll(async () => {
  h = await startCoreHarness();
});
afterAll(() => h?.close());

describe('core.stop()', () => {
  it('stops once, however many times and at once it is called, after writing the manifests', async () => {
    const batchId = await finishedBatch(h.core, {
      inputs: [join(PRODUCT_FIXTURES_DIR, 'hat')],
      name: 'Stopped twice',
    });
    const { resultsFolder } = await callCore(h.core, 'batches:get', { id: batchId });

    await expect(Promise.all([h.core.stop(), h.core.stop()])).resolves.toEqual([undefined, undefined]);
    await expect(h.core.stop()).resolves.toBeUndefined();

    const manifest = JSON.parse(await readFile(join(resultsFolder, 'manifest.json'), 'utf8')) as {
      batch: { id: string };
    };
    expect(manifest.batch.id).toBe(batchId);
    expect(h.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  }, 60_000);
});
