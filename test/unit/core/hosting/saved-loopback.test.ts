import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { LoopbackHost } from '../../../../src-main/core/hosting/loopback.ts';
import { startSavedLoopbackHost } from '../../../../src-main/core/hosting/saved-loopback.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

let dir: string;
let photo: string;
const hosts: LoopbackHost[] = [];

async function start(dataDir: string): Promise<LoopbackHost> {
  const host = await startSavedLoopbackHost(dataDir);
  hosts.push(host);
  return host;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-saved-loopback-'));
  photo = join(dir, 'hat.png');
  await copyFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.hat), photo);
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await rm(dir, { recursive: true, force: true });
});

it('serves a photo under the same URL after a restart on the same data folder, and not on another', async () => {
  const dataDir = join(dir, 'data');
  const first = await start(dataDir);
  const url = await first.urlFor(photo);
  await hosts.pop()!.close();
  // A job created before the restart fetches its photo from the URL it was given then.
  const again = await start(dataDir);
  await again.prepare([photo]);
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  expect(Buffer.from(await answer.arrayBuffer()).length).toBe((await stat(photo)).size);
  // The secret stays with its owner only.
  expect((await stat(join(dataDir, 'photo-host.json'))).mode & 0o777).toBe(0o600);

  const other = await start(join(dir, 'other-data'));
  expect(new URL(await other.urlFor(photo)).pathname).not.toBe(new URL(url).pathname);
});
