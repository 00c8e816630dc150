import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { fetchBytes, SandboxClient, type ShootBody } from '../../support/sandbox-client.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from '../../support/static-server.ts';

// --state FILE: the state survives a restart (same keys, jobs, balances), and a job left running
// completes in the next process.

describe('stateFile', () => {
  let dir: string;
  let photos: StaticServer;
  const open: Sandbox[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'adbatch-sandbox-state-'));
    photos = await startStaticServer();
  });
  afterAll(async () => {
    await Promise.all(open.map((sandbox) => sandbox.close()));
    await photos.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(stateFile: string, timeScale: number, renderConcurrency = 2): Promise<Sandbox> {
    const sandbox = await startSandbox({
      port: 0,
      stateFile,
      timeScale,
      renderConcurrency,
      rateLimit: '100000/60s',
    });
    open.push(sandbox);
    return sandbox;
  }

  async function stop(sandbox: Sandbox): Promise<void> {
    open.splice(open.indexOf(sandbox), 1);
    await sandbox.close();
  }

  it('keeps keys, balances, brands and a running shoot across a restart; the shoot then completes', async () => {
    const stateFile = join(dir, 'sandbox.json');
    // No render slot: this sandbox never starts rendering, like a process stopped before its renders ran
    // (a render in flight at close() would write the file after it; see the bug test below).
    const first = await start(stateFile, 0.05, 0);
    const keys = defaultKeys(first);
    const client1 = new SandboxClient(first.url);
    const created = await client1.createShoot(keys.personal, {
      product_image_urls: [photos.urlOf(PRODUCT_PHOTOS.capRed)],
      style: 'classic',
      shots: 1,
      quality: 'pro',
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    const brand = await client1.call<{ id: string }>('POST', '/v1/brands', {
      key: keys.agency,
      body: { name: 'Cedar Home' },
    });
    expect(brand.status).toBe(201);
    await stop(first);

    const second = await start(stateFile, 0.05);
    expect(defaultKeys(second)).toEqual(keys);
    const client2 = new SandboxClient(second.url);
    expect(await client2.credits(keys.personal)).toBe(498);
    expect(await client2.credits(keys.agency)).toBe(1000);
    const brands = await client2.call<{ data: Array<{ name: string }> }>('GET', '/v1/brands', {
      key: keys.agency,
    });
    expect(brands.body.data.map((entry) => entry.name)).toEqual([
      'Acme Outdoor',
      'Bloom Cosmetics',
      'Cedar Home',
    ]);

    const { body } = await client2.waitForStatus<ShootBody>('shoots', created.body.id, keys.personal, {
      timeoutMs: 25_000,
    });
    expect(body).toMatchObject({
      id: created.body.id,
      status: 'completed',
      credits_used: 2,
      credits_remaining: 498,
    });
    expect(body.images).toHaveLength(1);
    const image = await fetchBytes(body.images[0]!.url!);
    expect(image.status).toBe(200);
    expect(image.bytes.length).toBeGreaterThan(1000);
    expect(await client2.credits(keys.personal)).toBe(498);
    await stop(second);

    // A third start still serves the completed shoot's results from FILE.assets/.
    const third = await start(stateFile, 0.05);
    const client3 = new SandboxClient(third.url);
    const again = await client3.call<ShootBody>('GET', `/v1/shoots/${created.body.id}`, {
      key: keys.personal,
    });
    expect(again.body.status).toBe('completed');
    expect((await fetchBytes(again.body.images[0]!.url!)).status).toBe(200);
  });

  // A render still in flight at close() must not let the closed sandbox rewrite the state file later,
  // wiping whatever the next sandbox on the same file wrote meanwhile.
  it('a closed sandbox never writes the state file again (a render in flight at close)', async () => {
    const stateFile = join(dir, 'clobber.json');
    const first = await start(stateFile, 1);
    const keys = defaultKeys(first);
    // The photo host answers only when released: the render is in flight while the sandbox closes.
    const release = photos.hold('slow/photo.png');
    const created = await new SandboxClient(first.url).createShoot(keys.personal, {
      product_image_urls: [photos.urlOf('slow/photo.png')],
      style: 'classic',
      shots: 1,
    });
    expect(created.status).toBe(201);
    // Failed and refunded now, so the next sandbox has nothing to resume: only the closed one still renders.
    expect((await new SandboxClient(first.url).failJob(created.body.id)).status).toBe(200);
    // The photo host answers (404) 600 ms from now, whether or not close() waits for the render.
    const released = sleep(600).then(release);
    await stop(first);

    const second = await start(stateFile, 1);
    const brand = await new SandboxClient(second.url).call('POST', '/v1/brands', {
      key: keys.agency,
      body: { name: 'Written After Restart' },
    });
    expect(brand.status).toBe(201);
    // The closed sandbox's render settles soon after the release: give it time to write (it must not).
    await released;
    await sleep(500);
    await stop(second);

    const third = await start(stateFile, 1);
    const brands = await new SandboxClient(third.url).call<{ data: Array<{ name: string }> }>(
      'GET',
      '/v1/brands',
      {
        key: keys.agency,
      },
    );
    expect(brands.body.data.map((entry) => entry.name)).toContain('Written After Restart');
  });
  it('refuses a state file that is not a sandbox’s state, saying where, and leaves it as it was', async () => {
    const stateFile = join(dir, 'damaged.json');
    const first = await start(stateFile, 0.05, 0);
    await stop(first);
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { accounts: Array<{ credits: unknown }> };
    saved.accounts[0]!.credits = 'plenty';
    const damaged = JSON.stringify(saved);
    await writeFile(stateFile, damaged);
    await expect(start(stateFile, 0.05, 0)).rejects.toThrow(
      /sandbox state .*damaged\.json is not a sandbox's state \(accounts\.0\.credits: Invalid input: expected number, received string\); move it away to start fresh/,
    );
    expect(await readFile(stateFile, 'utf8')).toBe(damaged);
  });
});
