import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src-main/core/api/index.ts';
import { engineHarnessForFile } from '../../support/engine-harness.ts';
import { until } from '../../support/until.ts';

// A batch whose key this process does not hold (started by `adbatch run` with ADBATCH_API_KEY, then seen
// by the app) waits without sending; once the user adds that key in Settings, the running engine takes
// it up without a restart.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '60/3s' });

describe('a key added while the engine runs', () => {
  it('is used for the batch that waited for it', async () => {
    const batch = await h.createBatch({ products: 2 });
    let keyHeld = false;
    const engine = h.engine([batch.id], {
      stayAlive: true,
      clientFor: () => (keyHeld ? new ServiceClient({ baseUrl: h.sandbox.url, apiKey: h.apiKey }) : null),
    });
    const run = engine.run();
    try {
      await sleep(1500);
      expect(h.sandbox.requests().filter((entry) => entry.method === 'POST')).toEqual([]);
      expect(h.store.jobs.ofBatch(batch.id).map((job) => job.posts)).toEqual([0, 0]);

      keyHeld = true;
      await until(() => h.store.batches.get(batch.id)!.status === 'finished');
      expect(h.store.jobs.ofBatch(batch.id).map((job) => job.state)).toEqual(['done', 'done']);
    } finally {
      engine.stop();
      await run;
    }
  }, 40_000);
});
