import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, callCore, startCoreHarness, untilFinished } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
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
    const scan = await callCore(h.core, 'ingest:scan', { inputs: [join(PRODUCT_FIXTURES_DIR, 'hat')] });
    const batch = await callCore(h.core, 'batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Stopped twice',
    });
    await untilFinished(h.core, batch.id);
    const { resultsFolder } = await callCore(h.core, 'batches:get', { id: batch.id });

    await expect(Promise.all([h.core.stop(), h.core.stop()])).resolves.toEqual([undefined, undefined]);
    await expect(h.core.stop()).resolves.toBeUndefined();

    const manifest = JSON.parse(await readFile(join(resultsFolder, 'manifest.json'), 'utf8')) as {
      batch: { id: string };
    };
    expect(manifest.batch.id).toBe(batch.id);
    expect(h.logs.filter((line) => line.startsWith('error'))).toEqual([]);
  }, 60_000);
});
