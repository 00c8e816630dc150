import { join } from 'node:path';
import { type CoreHarness, finishedBatch, startCoreHarness, TEST_PHOTO_HOSTS } from './core-harness.ts';
import { type PRODUCT_PHOTOS, type StaticServer, startStaticServer, writeCatalog } from './static-server.ts';

// The set-up many handler-map tests share: the real core on the embedded sandbox, the products' photos
// served from a loopback host as a shop's catalog, and a batch of them run to its end.

export interface CatalogBatch {
  h: CoreHarness;
  photos: StaticServer;
  batchId: string;
  close(): Promise<void>;
}

export async function finishedCatalogBatch(
  options: { name: string; products: Array<keyof typeof PRODUCT_PHOTOS> } & Omit<
    Parameters<typeof finishedBatch>[1],
    'inputs' | 'name'
  >,
): Promise<CatalogBatch> {
  const { name, products, ...request } = options;
  const h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  const photos = await startStaticServer();
  const catalog = await writeCatalog(join(h.dir, `${name.toLowerCase()}.csv`), photos, products);
  const batchId = await finishedBatch(h.core, { inputs: [catalog], name, ...request });
  return {
    h,
    photos,
    batchId,
    async close() {
      await photos.close();
      await h.close();
    },
  };
}
