import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CoreHarness,
  callCore,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// A scan of a large catalog can be stopped (issue 28, point 3): `ingest:cancelScan` refuses the scan under
// way with its token in words, no new photo URL is asked for, another scan under way runs on (its progress
// named by its own token), and the next scan runs as usual. The photo host here holds
// every answer until the cancel is sent, so the scan is surely under way when it is cancelled.

const ROWS = 40;

let h: CoreHarness;
let dir: string;
let server: ReturnType<typeof createServer>;
let base: string;
const held: ServerResponse[] = [];
/** Until the cancel is sent, answers wait; after it, they are given at once. */
let holding = true;
let asked = 0;
let png: Buffer;

beforeAll(async () => {
  h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-scan-cancel-'));
  png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#8090a0' } })
    .png()
    .toBuffer();
  server = createServer((_request, response) => {
    asked++;
    held.push(response);
    if (!holding) answerHeld();
    server.emit('asked');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const answerHeld = () => {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  }
};

describe('ingest:cancelScan', () => {
  it('refuses a catalog scan under way in words, and asks for no further photo', async () => {
    const catalog = join(dir, 'large.csv');
    const rows = Array.from({ length: ROWS }, (_, i) => `Shirt ${i},${base}/shirt-${i}.png`);
    await writeFile(catalog, `product,url\n${rows.join('\n')}\n`);
    const firstAsked = once(server, 'asked');
    const reply = h.core.dispatch('ingest:scan', { inputs: [catalog], scanToken: 'large' });
    await firstAsked;
    await callCore(h.core, 'ingest:cancelScan', { scanToken: 'large' });
    holding = false;
    answerHeld();
    expect(await reply).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'refused',
        message: 'The scan was cancelled: nothing was planned.',
      }),
    });
    // Only the checks already started (the scan's default concurrency, twice the cores) were asked for.
    expect(asked).toBeLessThanOrEqual(Math.max(2, availableParallelism() * 2));
  });

  it('cancels only the scan with its token: another under way at the same time finishes', async () => {
    holding = true;
    const catalogOf = async (name: string) => {
      const file = join(dir, `${name}.csv`);
      const rows = Array.from({ length: ROWS }, (_, i) => `${name} ${i},${base}/${name}-${i}.png`);
      await writeFile(file, `product,url\n${rows.join('\n')}\n`);
      return file;
    };
    const [first, second] = [await catalogOf('first'), await catalogOf('second')];
    // Both scans are surely under way once each has asked for a photo of its own.
    const askedBoth = new Promise<void>((resolve) => {
      const check = () => {
        const paths = held.map((response) => response.req.url ?? '');
        if (
          paths.some((path) => path.startsWith('/first-')) &&
          paths.some((path) => path.startsWith('/second-'))
        ) {
          server.off('asked', check);
          resolve();
        }
      };
      server.on('asked', check);
    });
    const progress: Array<{ scanToken: string | null; checked: number; total: number }> = [];
    const stopListening = h.core.events.on('ingest:progress', (event) => progress.push(event));
    const cancelled = h.core.dispatch('ingest:scan', { inputs: [first], scanToken: 'first' });
    const kept = callCore(h.core, 'ingest:scan', { inputs: [second], scanToken: 'second' });
    await askedBoth;
    await callCore(h.core, 'ingest:cancelScan', { scanToken: 'first' });
    holding = false;
    answerHeld();
    expect(await cancelled).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'refused',
        message: 'The scan was cancelled: nothing was planned.',
      }),
    });
    expect((await kept).products).toHaveLength(ROWS);
    stopListening();
    // Each scan's progress names it, so a front end shows only its own scan's counts.
    expect(new Set(progress.map((event) => event.scanToken))).toEqual(
      new Set(progress.some((event) => event.scanToken === 'first') ? ['first', 'second'] : ['second']),
    );
    expect(progress.filter((event) => event.scanToken === 'second').at(-1)).toEqual({
      scanToken: 'second',
      checked: ROWS,
      total: ROWS,
    });
  });

  it('leaves the next scan alone', async () => {
    const scan = await callCore(h.core, 'ingest:scan', { inputs: [join(PRODUCT_FIXTURES_DIR, 'hat')] });
    expect(scan.products.map((product) => product.name)).toEqual(['hat']);
  });
});
