import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { VideoBody } from '../../../src-main/core/api/index.ts';
import { startLoopbackHost } from '../../../src-main/core/hosting/loopback.ts';
import { quoteVideo } from '../../../src-main/core/pricing.ts';
import { addFault, engineHarnessForFile } from '../../support/engine-harness.ts';
import { QUICK_VIDEO } from '../../support/job-settings.ts';

// A video sent with served copies (its shots' result URLs had expired) may be fetching them when the
// process dies: the answer to its POST was lost, so the service may have made it and be reading its inputs.
// Started again, the loopback host (same secret, same port) must serve those copies again at the URLs that
// were sent, as it does the batch's photos; the job itself is never sent again.

const h = engineHarnessForFile({ timeScale: 0.02, rateLimit: '600/6s' });

describe('served copies across a restart', () => {
  it('are served again at the URLs a video whose outcome is unknown was sent', async () => {
    const batch = await h.createBatch({ products: 1 });
    await h.run([batch.id]);
    const [shoot] = h.store.jobs.ofBatch(batch.id);
    expect(shoot!.state).toBe('done');
    const expired = await fetch(`${h.sandbox.url}/_sandbox/results/expire`, { method: 'POST' });
    expect(expired.status).toBe(200);

    const secret = randomBytes(32);
    const before = await startLoopbackHost({ secret });
    h.store.addJobs(batch.id, [
      {
        productId: shoot!.productId,
        kind: 'video',
        afterJobId: shoot!.id,
        settings: QUICK_VIDEO,
        price: quoteVideo(QUICK_VIDEO),
      },
    ]);
    await addFault(h.sandbox, { method: 'POST', path: '/v1/videos', action: 'reset', times: 1 });
    await h.run([batch.id], { hostFor: () => before });
    await before.close();

    const video = h.store.jobs.ofBatch(batch.id).find((job) => job.kind === 'video')!;
    expect(video.state).toBe('outcome_unknown');
    const sent = (video.request as VideoBody).imageUrls;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.startsWith(`${before.origin}/p/`)).toBe(true);

    // The restart: nothing told the new host about the copy but the engine's preparation of the batch.
    const port = Number(new URL(before.origin).port);
    const after = await startLoopbackHost({ secret, port, untoldWaitMs: 100 });
    try {
      await h.run([batch.id], { hostFor: () => after });
      const response = await fetch(sent[0]!);
      expect(response.status).toBe(200);
      const shot = h.store.assets.ofJob(shoot!.id).find((asset) => asset.kind === 'image')!;
      expect(
        createHash('sha256')
          .update(Buffer.from(await response.arrayBuffer()))
          .digest('hex'),
      ).toBe(shot.sha256);
      expect(h.store.jobs.get(video.id)).toMatchObject({ state: 'outcome_unknown', posts: 1 });
    } finally {
      await after.close();
    }
  }, 60_000);
});
