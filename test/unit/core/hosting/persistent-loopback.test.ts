import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { LoopbackHost } from '../../../../src-main/core/hosting/loopback.ts';
import { startPersistentLoopbackHost } from '../../../../src-main/core/hosting/photo-reach.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

// A job created just before a crash may have its photos fetched only after the restart (the service gets
// to them when it gets to the job): the data folder's loopback host must hand out the same URLs again.

let dir: string;
let photo: string;
const hosts: LoopbackHost[] = [];

async function start(dataDir: string): Promise<LoopbackHost> {
  const host = await startPersistentLoopbackHost(dataDir);
  hosts.push(host);
  return host;
}

/**
 * A data folder whose host is to start on a port below the range the system hands out for port 0 (32768 and
 * up on Linux): between a close and a restart, another test's server started meanwhile cannot be given it.
 */
async function dataDirOnOwnPort(name: string): Promise<string> {
  const dataDir = join(dir, name);
  await mkdir(dataDir, { recursive: true });
  for (let port = 20_000 + (process.pid % 5_000); ; port++) {
    const probe = createServer();
    const free = await new Promise<boolean>((resolveListen) => {
      probe.once('error', () => resolveListen(false));
      probe.listen(port, '127.0.0.1', () => resolveListen(true));
    });
    if (!free) continue;
    await new Promise((resolveClose) => probe.close(resolveClose));
    const secret = randomBytes(32).toString('hex');
    await writeFile(join(dataDir, 'photo-host.json'), JSON.stringify({ secret, port }));
    return dataDir;
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-persistent-loopback-'));
  photo = join(dir, 'hat.png');
  await copyFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.hat), photo);
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await rm(dir, { recursive: true, force: true });
});

it('serves a photo under the same URL after a restart on the same data folder, and not on another', async () => {
  const dataDir = await dataDirOnOwnPort('data');
  const url = await (await start(dataDir)).urlFor(photo);
  await hosts.pop()!.close();

  const again = await start(dataDir);
  await again.prepare([photo]);
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  expect(Buffer.from(await answer.arrayBuffer()).length).toBe((await stat(photo)).size);

  const other = await start(join(dir, 'other-data'));
  expect(new URL(await other.urlFor(photo)).pathname).not.toBe(new URL(url).pathname);
  // The secret behind the URLs, written at a first start, stays with its owner only.
  expect((await stat(join(dir, 'other-data', 'photo-host.json'))).mode & 0o777).toBe(0o600);
});

it('starts on another port when its own was taken meanwhile, and keeps that one', async () => {
  const dataDir = join(dir, 'data');
  const first = await start(dataDir);
  await hosts.pop()!.close();
  const squatter = createServer();
  await new Promise<void>((resolveListen) =>
    squatter.listen(Number(new URL(first.origin).port), '127.0.0.1', resolveListen),
  );
  try {
    const moved = await start(dataDir);
    expect(moved.origin).not.toBe(first.origin);
    // The new port replaced the file whole: no part of a write is left beside it.
    const saved = JSON.parse(await readFile(join(dataDir, 'photo-host.json'), 'utf8'));
    expect(saved.port).toBe(Number(new URL(moved.origin).port));
    expect(await readdir(dataDir)).not.toContainEqual(expect.stringMatching(/\.part$/));
    await hosts.pop()!.close();
    expect((await start(dataDir)).origin).toBe(moved.origin);
  } finally {
    await new Promise((resolveClose) => squatter.close(resolveClose));
  }
});

it('leaves its file untouched on a restart that changes nothing, so a kill during a start cannot cut it short', async () => {
  // A start that rewrote the file in place and was killed between truncating and writing it left it empty;
  // the next start then took a new secret and port, and jobs already sent could no longer fetch their photos.
  const dataDir = await dataDirOnOwnPort('data');
  const url = await (await start(dataDir)).urlFor(photo);
  await hosts.pop()!.close();
  const before = await stat(join(dataDir, 'photo-host.json'));

  const again = await start(dataDir);
  expect(await again.urlFor(photo)).toBe(url);
  const after = await stat(join(dataDir, 'photo-host.json'));
  expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
});
