import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { BatchProgress } from '../../../src-main/shared/models.ts';
import { etaWords } from '../../../src-main/shared/words.ts';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { until } from '../../support/until.ts';

// Issue 31, point 6: a batch says how long it has left from its start, before any of its jobs ends. With
// nothing learned on a fresh data folder, the estimate comes from the service's published typical durations
// (the priors) and the key's request budget, said as a range ("about 20 s to 2 min left"). On the app's
// own Sandbox account (the embedded sandbox, over HTTP), through the events every front end follows.

let h: CoreHarness;
let products: string;

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  h = await startCoreHarness();
  products = await mkdtemp(join(tmpdir(), 'adbatch-eta-from-start-'));
}, 30_000);
afterAll(async () => {
  await h?.close();
  await rm(products, { recursive: true, force: true });
});

describe('the ETA of a fresh batch', () => {
  it('is a range from the first progress, before any job ends, and counts down to the end', async () => {
    const events: Array<{ at: number; progress: BatchProgress }> = [];
    h.core.events.on('batches:progress', (progress) => events.push({ at: Date.now(), progress }));
    const scan = await call('ingest:scan', { inputs: await makeProductFolders(products, 3) });
    const { id } = await call('batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: QUICK_VIDEO,
      includeDone: true,
      name: 'Fresh',
    });
    const ours = () => events.filter((event) => event.progress.id === id);
    await until(() => ours().length > 0);
    const [first] = ours();
    // Nothing has ended yet, and nothing was ever learned on this data folder.
    expect(first!.progress).toMatchObject({ status: 'running', done: 0, failed: 0 });
    const eta = first!.progress.eta;
    expect(eta).not.toBeNull();
    expect(eta!.range).toBe(true);
    expect(eta!.from).toBeGreaterThan(first!.at);
    expect(eta!.from).toBeLessThan(eta!.at);
    expect(eta!.at).toBeLessThan(eta!.to);
    expect(etaWords(eta!, first!.at)).toMatch(/^about \d+ (s |min )?to \d+ (s|min) left$/);

    // Every progress while the batch runs carries one, up to its end.
    await until(() => ours().at(-1)?.progress.status === 'finished');
    const running = ours().filter((event) => event.progress.status === 'running');
    expect(running.length).toBeGreaterThan(1);
    for (const event of running.filter((one) => one.progress.done + one.progress.failed < 6)) {
      expect(event.progress.eta).not.toBeNull();
    }
    expect(ours().at(-1)!.progress.eta).toBeNull();
  }, 120_000);
});
