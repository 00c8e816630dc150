import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from '../../support/static-server.ts';
import { untilValue } from '../../support/until.ts';

// Issue 29 point 3 through the handler map on a real sandbox batch: once the designer exported with
// Shopify, New batch's quote says before the next batch that Standard is short of Shopify's 2048 px and
// which quality is enough; at Pro it says nothing. Before any export it has no recipe to measure against.

let h: CoreHarness;
let photos: StaticServer;
let catalog: string;

const quoteOf = async (quality: QuoteRequest['shoot']['quality']) => {
  const scan = await callCore(h.core, 'ingest:scan', { inputs: [catalog] });
  return callCore(h.core, 'batches:quote', {
    scanId: scan.scanId,
    accountId: 'sandbox',
    shoot: { ...QUICK_SHOOT, quality },
    video: null,
    includeDone: true,
  });
};

beforeAll(async () => {
  h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  photos = await startStaticServer();
  catalog = join(h.dir, 'catalog.csv');
  await writeFile(catalog, `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\n`);
}, 60_000);

afterAll(async () => {
  await photos?.close();
  await h?.close();
});

describe('the quote before a batch', () => {
  it('measures the quality against the recipes of recent exports, and names the one that is enough', async () => {
    expect((await quoteOf('standard')).recipeAdvice).toEqual([]);

    const batchId = await finishedBatch(h.core, { inputs: [catalog], name: 'Hats' });
    const started = await callCore(h.core, 'export:start', {
      scope: { batchIds: [batchId] },
      recipes: ['shopify', 'web'],
      selection: { rule: 'not-rejected' },
      destination: join(h.dir, 'exports'),
      acceptWarnings: ['below_recommended'],
    });
    const ended = await untilValue(async () => {
      const detail = await callCore(h.core, 'export:get', { id: started.id });
      return detail.state === 'running' ? null : detail;
    });
    expect(ended.state).toBe('done');

    expect((await quoteOf('standard')).recipeAdvice).toEqual(['Shopify wants 2048 px: choose Pro (2K).']);
    expect((await quoteOf('pro')).recipeAdvice).toEqual([]);
  }, 120_000);
});
