import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src-main/core/api/index.ts';
import { quoteBatch, quoteShoot, quoteVideo } from '../../../src-main/core/pricing.ts';
import { generateApiKey } from '../../../src-main/sandbox/accounts.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import {
  MODES,
  QUALITIES,
  SHOT_COUNTS,
  type ShootStyle,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../../src-main/shared/vocabulary.ts';

// Money is exact: over a matrix of settings, the preview equals, to the credit, what the sandbox charges.
// Inputs point at a closed port, so jobs never render (they fail later and are refunded); the charge is
// what is measured, at the moment of creation.

const STYLES: ShootStyle[] = ['classic', 'minimal', 'luxury', 'lifestyle'];
const UNREACHABLE = 'http://127.0.0.1:9/photo.png';

let sandbox: Sandbox;
let client: ServiceClient;

beforeAll(async () => {
  const key = generateApiKey();
  sandbox = await startSandbox({
    accounts: { accounts: [{ name: 'Prices', type: 'personal', credits: 100_000, keys: [{ key }] }] },
    renderConcurrency: 0,
    rateLimit: '1000/60s',
  });
  client = new ServiceClient({ baseUrl: sandbox.url, apiKey: key });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('cost previews equal what the service charges', () => {
  const shootCases = STYLES.flatMap((style) =>
    SHOT_COUNTS.flatMap((shots) => QUALITIES.map((quality) => ({ style, shots, quality }))),
  );
  it.each(shootCases)('shoot $style x$shots $quality', async (settings) => {
    const before = (await client.getCredits()).credits;
    const quote = quoteShoot(settings);
    const shoot = await client.createShoot({ productImageUrls: [UNREACHABLE], ...settings });
    expect(shoot.creditsUsed).toBe(quote.credits);
    expect(shoot.shots).toBe(quote.shots);
    expect(shoot.shotsAdjusted).toBe(quote.clamped);
    expect(before - (await client.getCredits()).credits).toBe(quote.credits);
  });

  const videoCases = VIDEO_DURATIONS.flatMap((duration) =>
    VIDEO_RESOLUTIONS.flatMap((resolution) => MODES.map((mode) => ({ duration, resolution, mode }))),
  );
  it.each(videoCases)('video $duration s $resolution $mode', async (settings) => {
    const before = (await client.getCredits()).credits;
    const video = await client.createVideo({ imageUrls: [UNREACHABLE], ...settings });
    expect(video.creditsUsed).toBe(quoteVideo(settings));
    expect(before - (await client.getCredits()).credits).toBe(quoteVideo(settings));
  });

  it('a whole batch preview equals the sum the service charged for it', async () => {
    const before = (await client.getCredits()).credits;
    const shoot = { style: 'editorial' as const, shots: 6 as const, quality: 'pro' as const };
    const video = { duration: 15 as const, resolution: '1080p' as const, mode: 'with_model' as const };
    const quote = quoteBatch(['a', 'b', 'c'], shoot, video, before);
    for (let i = 0; i < 3; i++) {
      await client.createShoot({ productImageUrls: [UNREACHABLE], ...shoot });
      await client.createVideo({ imageUrls: [UNREACHABLE], ...video });
    }
    expect(before - (await client.getCredits()).credits).toBe(quote.credits);
  });
});
