import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, ValidationError } from '../../../src-main/core/api/index.ts';
import { generateApiKey } from '../../../src-main/sandbox/accounts.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { CatalogView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  refusalOf,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// The vocabulary the app offers (`catalog:get`, through the dispatch every transport uses) against the
// service's own rules: the sandbox keeps its own copy of them (sandbox/rules.ts) and enforces them over HTTP,
// so a choice the app offers that the service refuses, or a price the app shows that it does not charge,
// fails here. Inputs point at a closed port: jobs are created and charged, never rendered.

const UNREACHABLE = 'http://127.0.0.1:9/photo.png';

let h: CoreHarness;
let sandbox: Sandbox;
let client: ServiceClient;
let catalog: CatalogView;

beforeAll(async () => {
  h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  const key = generateApiKey();
  sandbox = await startSandbox({
    accounts: { accounts: [{ name: 'Catalog', type: 'personal', credits: 100_000, keys: [{ key }] }] },
    renderConcurrency: 0,
    rateLimit: '1000/60s',
  });
  client = new ServiceClient({ baseUrl: sandbox.url, apiKey: key });
  catalog = await callCore(h.core, 'catalog:get');
});
afterAll(async () => {
  await h?.close();
  await sandbox?.close();
});

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe('catalog:get', () => {
  it('takes no arguments', async () => {
    expect(await refusalOf(h.core, 'catalog:get', { style: 'classic' })).toMatchObject({
      code: 'bad_request',
    });
  });

  it('offers every style the service takes, and says which make 6 shots and what the others make', async () => {
    expect(catalog.styles.length).toBeGreaterThan(0);
    for (const style of catalog.styles) {
      const shoot = await client.createShoot({
        productImageUrls: [UNREACHABLE],
        style: style.id,
        shots: 6,
      });
      expect({ style: style.id, shots: shoot.shots, adjusted: shoot.shotsAdjusted }).toEqual({
        style: style.id,
        shots: style.sixShots ? 6 : catalog.clampedShots,
        adjusted: !style.sixShots,
      });
    }
  });

  it('charges per shot what each quality says, for every shot count and aspect ratio it offers', async () => {
    for (const quality of catalog.qualities) {
      for (const shots of catalog.shotCounts) {
        const shoot = await client.createShoot({
          productImageUrls: [UNREACHABLE],
          style: catalog.defaults.shoot.style,
          shots,
          quality: quality.id,
        });
        expect({ quality: quality.id, shots, credits: shoot.creditsUsed }).toEqual({
          quality: quality.id,
          shots,
          credits: shots * quality.creditsPerImage,
        });
      }
    }
    for (const aspectRatio of catalog.shootAspectRatios) {
      const shoot = await client.createShoot({
        productImageUrls: [UNREACHABLE],
        style: 'classic',
        aspectRatio,
      });
      expect(shoot.id, aspectRatio).toBeTruthy();
    }
  });

  it('charges per second what each resolution says (with a model: no discount)', async () => {
    const withModel = catalog.modes.find((mode) => mode.id === 'with_model')!;
    for (const resolution of catalog.videoResolutions) {
      for (const { seconds } of catalog.videoDurations) {
        const video = await client.createVideo({
          imageUrls: [UNREACHABLE],
          duration: seconds,
          resolution: resolution.id,
          mode: withModel.id,
        });
        expect({ resolution: resolution.id, seconds, credits: video.creditsUsed }).toEqual({
          resolution: resolution.id,
          seconds,
          credits: resolution.creditsPerSecond * seconds,
        });
      }
    }
  });

  it('makes each video length from as many shots as the service takes for it, and not one more', async () => {
    for (const { seconds, sourceImages } of catalog.videoDurations) {
      const images = (count: number) => Array.from({ length: count }, (_, i) => `${UNREACHABLE}?${i}`);
      const resolution = catalog.defaults.video.resolution;
      const video = await client.createVideo({
        imageUrls: images(sourceImages),
        duration: seconds,
        resolution,
      });
      expect(video.id, `${seconds} s from ${sourceImages}`).toBeTruthy();
      const tooMany = await refusal(
        client.createVideo({ imageUrls: images(sourceImages + 1), duration: seconds, resolution }),
      );
      expect(tooMany, `${seconds} s from ${sourceImages + 1}`).toBeInstanceOf(ValidationError);
    }
  });

  it('offers only video aspect ratios and modes the service takes', async () => {
    for (const aspectRatio of catalog.videoAspectRatios) {
      for (const mode of catalog.modes) {
        const video = await client.createVideo({
          imageUrls: [UNREACHABLE],
          duration: catalog.defaults.video.duration,
          resolution: catalog.defaults.video.resolution,
          mode: mode.id,
          aspectRatio,
        });
        expect(video.id, `${aspectRatio} ${mode.id}`).toBeTruthy();
      }
    }
  });

  it('starts a new batch where the app quotes, to the credit, what the service charges', async () => {
    const products = ['hat', 'tote'];
    const scan = await callCore(h.core, 'ingest:scan', {
      inputs: products.map((name) => join(PRODUCT_FIXTURES_DIR, name)),
    });
    const { shoot, video } = catalog.defaults;
    const quote = await callCore(h.core, 'batches:quote', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot,
      video,
      includeDone: false,
    });
    const before = (await client.getCredits()).credits;
    for (const _ of products) {
      await client.createShoot({
        productImageUrls: [UNREACHABLE],
        ...shoot,
        modelUrl: undefined,
        backgroundColor: undefined,
      });
      await client.createVideo({ imageUrls: [UNREACHABLE], ...video, aspectRatio: undefined });
    }
    expect(quote.credits).toBe(before - (await client.getCredits()).credits);
  });
});
