import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { scanInputs } from '../src-main/core/ingest/scan.ts';

// The catalog half of bench:ingest: a Shopify export whose every handle shares one title (the naming's worst
// case) and a plain `product,url` CSV, each scanned by scanInputs. Their photos are a few URLs on a loopback
// server, so the figures are the catalog's reading, naming and planning, not the network. The Shopify
// catalog is also scanned at a tenth of its rows: linear work takes about ten times as long for ten times
// the rows, quadratic work a hundred.

/** Distinct photo URLs the rows cycle through: each is checked once, whatever the number of rows. */
const PHOTO_URLS = 50;
const SHARED_TITLE = 'Linen shirt';
/** Ten times the rows in at most this many times the time: linear, with room for a loaded machine. */
export const CATALOG_TARGETS = { scalingMax: 20 };

export interface CatalogFigures {
  rows: number;
  shopifySharedTitleMs: number;
  shopifyTenthMs: number;
  /** shopifySharedTitleMs over shopifyTenthMs. */
  scaling: number;
  plainCsvMs: number;
  met: { scaling: boolean };
}

async function photoServer(): Promise<{ base: string; close: () => Promise<void> }> {
  const png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#b0a090' } })
    .png()
    .toBuffer();
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    response.end(png);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Scans one catalog; the plan must hold one product per row, or the figure measures a failure. */
async function timedScan(file: string, rows: number, cacheDir: string): Promise<number> {
  const start = performance.now();
  // The photo server is on this computer: allowed by name, as a designer allows their own (--allow-host).
  const plan = await scanInputs([file], { cacheDir, outbound: { allowedHosts: ['127.0.0.1'] } });
  const ms = Math.round(performance.now() - start);
  if (plan.products.length !== rows || plan.problems.length > 0)
    throw new Error(
      `${file}: ${plan.products.length} products, not ${rows}; ${plan.problems.length} problems, e.g. ${plan.problems
        .slice(0, 3)
        .map((problem) => `${problem.file}: ${problem.reason}`)
        .join('; ')}`,
    );
  return ms;
}

export async function benchCatalogs(rows: number, work: string): Promise<CatalogFigures> {
  const server = await photoServer();
  try {
    const url = (row: number) => `${server.base}/photo-${row % PHOTO_URLS}.png`;
    const shopify = async (count: number) => {
      const file = join(work, `shopify-${count}.csv`);
      const lines = Array.from({ length: count }, (_, row) => `handle-${row},${SHARED_TITLE},${url(row)},1`);
      await writeFile(file, `Handle,Title,Image Src,Image Position\n${lines.join('\n')}\n`);
      return file;
    };
    const tenth = Math.max(1, Math.round(rows / 10));
    const shopifyTenthMs = await timedScan(await shopify(tenth), tenth, join(work, 'cache-tenth'));
    process.stderr.write(`Shopify catalog, ${tenth} rows, one title: ${shopifyTenthMs} ms\n`);
    const shopifySharedTitleMs = await timedScan(await shopify(rows), rows, join(work, 'cache-shopify'));
    process.stderr.write(`Shopify catalog, ${rows} rows, one title: ${shopifySharedTitleMs} ms\n`);
    const plain = join(work, `plain-${rows}.csv`);
    await writeFile(
      plain,
      `product,url\n${Array.from({ length: rows }, (_, row) => `product-${row},${url(row)}`).join('\n')}\n`,
    );
    const plainCsvMs = await timedScan(plain, rows, join(work, 'cache-plain'));
    process.stderr.write(`plain CSV catalog, ${rows} rows: ${plainCsvMs} ms\n`);
    const scaling = Math.round((shopifySharedTitleMs / Math.max(1, shopifyTenthMs)) * 100) / 100;
    return {
      rows,
      shopifySharedTitleMs,
      shopifyTenthMs,
      scaling,
      plainCsvMs,
      met: { scaling: scaling <= CATALOG_TARGETS.scalingMax },
    };
  } finally {
    await server.close();
  }
}
