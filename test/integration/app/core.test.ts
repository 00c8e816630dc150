import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src-main/core/create-core.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import type { ArgsOf, Channel, EventName, Events } from '../../../src-main/shared/ipc.ts';
import type { ShootSettingsView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  refusalOf,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';
import { expectNoPlainSecret, expectSealed } from '../../support/sealing.ts';
import { memorySecretBox } from '../../support/secret-box.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS, startStaticServer } from '../../support/static-server.ts';

// The app's handler map, through the same dispatch every transport uses, over the real queue, ingest,
// engine and the embedded sandbox.

let h: CoreHarness;
let service: Sandbox;
const secrets = memorySecretBox();

beforeAll(async () => {
  h = await startCoreHarness({ secrets, allowedHosts: TEST_PHOTO_HOSTS });
  service = await startSandbox({ port: 0, timeScale: 0.02 });
});
afterAll(async () => {
  await h?.close();
  await service?.close();
});

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>, core: Core = h.core) =>
  callCore(core, channel, args);
const failure = (channel: string, args: unknown, core: Core = h.core) => refusalOf(core, channel, args);

function collect<E extends EventName>(event: E): Array<{ at: number; payload: Events[E] }> {
  const seen: Array<{ at: number; payload: Events[E] }> = [];
  h.core.events.on(event, (payload) => seen.push({ at: Date.now(), payload }));
  return seen;
}

const SHOOT: ShootSettingsView = {
  style: 'classic',
  shots: 4,
  quality: 'standard',
  aspectRatio: '1:1',
  mode: 'product_only',
  modelUrl: null,
  backgroundColor: null,
};

describe('dispatch', () => {
  it('refuses an unknown channel and arguments that fail their schema, before any handler', async () => {
    expect(await failure('shell:exec', { command: 'rm -rf /' })).toEqual({
      code: 'bad_request',
      message: 'unknown channel "shell:exec"',
    });
    expect((await failure('batches:get', { id: 42 })).message).toMatch(/^batches:get: id: /);
    expect((await failure('batches:get', { id: 'b1', extra: true })).code).toBe('bad_request');
    expect(
      (await failure('accounts:add', { name: 'x', baseUrl: 'file:///etc', apiKey: 'k' })).message,
    ).toMatch(/baseUrl/);
    expect((await failure('batches:pause', { id: 'nope' })).code).toBe('not_found');
  });
});

describe('accounts', () => {
  it('always has the Sandbox account, labelled and with its simulated balance', async () => {
    const [sandbox] = await call('accounts:list');
    expect(sandbox).toMatchObject({
      id: 'sandbox',
      name: 'Sandbox',
      kind: 'sandbox',
      balance: 5000,
      type: 'personal',
    });
    expect(sandbox!.keyHint).toMatch(/^…[0-9a-f]{4}$/);
  });

  it('adds a key after a live check: personal or agency, balance, agency name; stored sealed, shown masked', async () => {
    const keys = defaultKeys(service);
    const personal = await call('accounts:add', {
      name: 'Mine',
      baseUrl: service.url,
      apiKey: keys.personal,
    });
    expect(personal).toMatchObject({
      name: 'Mine',
      kind: 'service',
      type: 'personal',
      balance: 500,
      agencyName: null,
    });
    expect(personal.keyHint).toBe(`…${keys.personal.slice(-4)}`);
    const agency = await call('accounts:add', {
      name: 'Northwind',
      baseUrl: service.url,
      apiKey: keys.agency,
    });
    expect(agency).toMatchObject({ type: 'agency', agencyName: 'Northwind Agency', balance: 1000 });

    const listed = JSON.stringify(await call('accounts:list'));
    expect(listed).not.toContain(keys.personal);
    expect(listed).not.toContain(keys.agency);
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    // WAL mode: recent writes are in the -wal file, so both are searched.
    const raw = Buffer.concat([
      await readFile(join(h.dir, 'data', 'adbatch.db')),
      await readFile(join(h.dir, 'data', 'adbatch.db-wal')).catch(() => Buffer.alloc(0)),
    ]);
    expect(raw.includes(Buffer.from('Northwind'))).toBe(true);
    const sealed = db.prepare('SELECT name, sealed_key FROM accounts').all() as Array<{
      name: string;
      sealed_key: Buffer;
    }>;
    db.close();
    expect(sealed.map((row) => row.name).sort()).toEqual(['Mine', 'Northwind']);
    for (const [name, key] of [
      ['Mine', keys.personal],
      ['Northwind', keys.agency],
    ] as const) {
      expectNoPlainSecret(raw, key);
      expectSealed(sealed.find((row) => row.name === name)!.sealed_key, key, secrets);
    }
    expect(h.logs.join('\n')).not.toContain(keys.personal);

    expect(
      await failure('accounts:add', { name: 'Again', baseUrl: service.url, apiKey: keys.personal }),
    ).toMatchObject({
      code: 'conflict',
    });
    await call('accounts:remove', { id: agency.id });
    expect((await call('accounts:list')).map((account) => account.name)).toEqual(['Sandbox', 'Mine']);
  });

  it('says which is wrong: a malformed key, a refused key, an unreachable service', async () => {
    expect(
      await failure('accounts:add', { name: 'x', baseUrl: service.url, apiKey: 'sk-123' }),
    ).toMatchObject({
      code: 'invalid_key',
    });
    const unknown = `adsk_${'0'.repeat(64)}`;
    expect(await failure('accounts:add', { name: 'x', baseUrl: service.url, apiKey: unknown })).toMatchObject(
      {
        code: 'key_refused',
        message: expect.stringMatching(/refused this key \(401\)/),
      },
    );
    expect(
      await failure('accounts:add', {
        name: 'x',
        baseUrl: 'http://127.0.0.1:1',
        apiKey: `adsk_${'1'.repeat(64)}`,
      }),
    ).toEqual({
      code: 'unreachable',
      // Said once, in one sentence and what to do: not "could not be reached: could not read… could not connect…".
      message:
        'Could not connect to the service at 127.0.0.1:1: the connection was refused. Check the address and the network connection.',
    });
  });

  it('refuses to keep a key where the computer cannot seal it, storing nothing', async () => {
    const bare = await startCoreHarness({ secrets: memorySecretBox(false) });
    try {
      const error = await failure(
        'accounts:add',
        { name: 'x', baseUrl: service.url, apiKey: defaultKeys(service).personal },
        bare.core,
      );
      expect(error.code).toBe('encryption_unavailable');
      expect((await call('accounts:list', undefined, bare.core)).map((account) => account.id)).toEqual([
        'sandbox',
      ]);
      const db = new Database(join(bare.dir, 'data', 'adbatch.db'), { readonly: true });
      expect(db.prepare('SELECT count(*) AS rows FROM accounts').get()).toEqual({ rows: 0 });
      db.close();
    } finally {
      await bare.close();
    }
  });
});

describe('a refused key', () => {
  it('pauses the batch, marks the account refused and says so', async () => {
    const photos = await startStaticServer();
    try {
      const catalog = join(h.dir, 'catalog.csv');
      await writeFile(
        catalog,
        `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\nTote,${photos.urlOf(PRODUCT_PHOTOS.tote)}\n`,
      );
      const account = await call('accounts:add', {
        name: 'Pinned',
        baseUrl: service.url,
        apiKey: defaultKeys(service).agencyPinned,
      });
      const scan = await call('ingest:scan', { inputs: [catalog] });
      expect(scan.products.map((product) => product.photos[0]!.thumbnailUrl)).toEqual([
        photos.urlOf(PRODUCT_PHOTOS.hat),
        photos.urlOf(PRODUCT_PHOTOS.tote),
      ]);
      const changed = collect('accounts:changed');
      await new SandboxClient(service.url).addFault({
        method: 'POST',
        path: '/v1/shoots',
        action: 'status',
        status: 401,
      });
      const batch = await call('batches:create', {
        scanId: scan.scanId,
        accountId: account.id,
        shoot: SHOOT,
        video: null,
        includeDone: false,
        name: 'Refused',
      });
      await expect
        .poll(async () => (await call('batches:get', { id: batch.id })).statusReason, { timeout: 30_000 })
        .toBe('unauthorized');
      await expect.poll(() => changed.some((event) => event.payload.id === account.id)).toBe(true);
      const refused = (await call('accounts:list')).find((candidate) => candidate.id === account.id)!;
      expect(refused.refusedAt).not.toBeNull();
      expect((await call('batches:get', { id: batch.id })).creditsSpent).toBe(0);
    } finally {
      await new SandboxClient(service.url).clearFaults();
      await photos.close();
    }
  }, 60_000);
});

describe('an account removed while its batches remain', () => {
  it('keeps the batches on their account, without a key, until the same key is added again', async () => {
    // A service of its own: its keys are not yet accounts of this core.
    const studio = await startSandbox({ port: 0, timeScale: 0.02 });
    const photos = await startStaticServer();
    try {
      const catalog = join(h.dir, 'removed.csv');
      await writeFile(catalog, `product,url\nHat,${photos.urlOf(PRODUCT_PHOTOS.hat)}\n`);
      const apiKey = defaultKeys(studio).personal;
      const account = await call('accounts:add', { name: 'Studio', baseUrl: studio.url, apiKey });
      const scan = await call('ingest:scan', { inputs: [catalog] });
      const batch = await call('batches:create', {
        scanId: scan.scanId,
        accountId: account.id,
        shoot: { ...SHOOT, shots: 1 },
        video: null,
        includeDone: false,
        name: 'Removed key',
      });
      await expect
        .poll(async () => (await call('batches:get', { id: batch.id })).status, { timeout: 30_000 })
        .toBe('finished');

      await call('accounts:remove', { id: account.id });
      expect((await call('accounts:list')).map((listed) => listed.id)).not.toContain(account.id);
      const orphan = await call('batches:get', { id: batch.id });
      expect(orphan).toMatchObject({ accountName: 'Studio', keyHeld: false, creditsSpent: 1 });
      expect((await failure('accounts:remove', { id: account.id })).code).toBe('not_found');

      // The same key, added again under another name, is the same account: its batches have their key.
      const again = await call('accounts:add', { name: 'Studio (again)', baseUrl: studio.url, apiKey });
      expect(again.id).toBe(account.id);
      expect(await call('batches:get', { id: batch.id })).toMatchObject({
        accountName: 'Studio (again)',
        keyHeld: true,
      });
      await call('accounts:remove', { id: again.id });
    } finally {
      await photos.close();
      await studio.close();
    }
  }, 60_000);
});

describe('quotes', () => {
  it('use the balance the key was just checked with while the settings change, and ask again to create', async () => {
    const photos = await startStaticServer();
    try {
      const catalog = join(h.dir, 'quotes.csv');
      await writeFile(catalog, `product,url\nMug,${photos.urlOf(PRODUCT_PHOTOS.mug)}\n`);
      const account = await call('accounts:add', {
        name: 'Agency',
        baseUrl: service.url,
        apiKey: defaultKeys(service).agency,
      });
      const scan = await call('ingest:scan', { inputs: [catalog] });
      const client = new SandboxClient(service.url);
      const creditCalls = async () =>
        (await client.requestLog()).filter((entry) => entry.path === '/v1/credits').length;
      const before = await creditCalls();
      const request = { scanId: scan.scanId, accountId: account.id, video: null, includeDone: true };
      for (const shots of [1, 4, 6] as const) {
        const quote = await call('batches:quote', { ...request, shoot: { ...SHOOT, shots } });
        expect(quote.balance).toBe(1000);
      }
      expect((await creditCalls()) - before).toBe(0);
      await call('batches:create', { ...request, shoot: SHOOT, name: 'Mugs' });
      expect((await creditCalls()) - before).toBe(1);
    } finally {
      await photos.close();
    }
  });
});

describe('a batch from drop to done', () => {
  it('scans, quotes exactly, runs with throttled progress, and shows results; a second time is set aside', async () => {
    const inputs = ['hat', 'tote', 'mug-set'].map((name) => join(PRODUCT_FIXTURES_DIR, name));
    const scan = await call('ingest:scan', { inputs });
    expect(scan.products.map((product) => product.name)).toEqual(['hat', 'tote', 'mug-set']);
    const token = scan.products[0]!.photos[0]!.thumbnailUrl!.replace('/files/', '');
    expect((await sharp(h.core.files.resolve(token)!).metadata()).width).toBeLessThanOrEqual(320);
    expect(h.core.files.resolve('not-a-token')).toBeNull();

    const request = {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: SHOOT,
      video: null,
      includeDone: false,
    };
    const quote = await call('batches:quote', request);
    expect(quote.credits).toBe(12);
    expect(quote.products.map((row) => row.credits)).toEqual([4, 4, 4]);
    expect(quote.balance).toBe(5000);

    const progress = collect('batches:progress');
    const created = await call('batches:create', { ...request, name: 'Spring' });
    expect(created).toMatchObject({
      name: 'Spring',
      accountName: 'Sandbox',
      status: 'running',
      products: 3,
      jobs: 3,
    });
    await expect
      .poll(async () => (await call('batches:get', { id: created.id })).status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe('finished');
    const detail = await call('batches:get', { id: created.id });
    expect(detail).toMatchObject({ done: 3, failed: 0, creditsSpent: 12, creditsRefunded: 0 });
    for (const item of detail.items) {
      expect(item.heroUrl).toMatch(/^\/files\//);
      const thumbnails = item.jobs[0]!.results.filter((result) => result.kind === 'thumbnail');
      expect(thumbnails).toHaveLength(4);
      const file = h.core.files.resolve(thumbnails[0]!.url.replace('/files/', ''))!;
      expect((await sharp(file).metadata()).format).toBe('jpeg');
    }
    const mine = () => progress.filter((event) => event.payload.id === created.id);
    await expect.poll(() => mine().at(-1)?.payload).toMatchObject({ status: 'finished', done: 3 });
    const seen = mine();
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(90);

    const again = await call('batches:quote', request);
    expect(again.credits).toBe(0);
    expect(again.setAside.map((problem) => problem.code)).toEqual([
      'already_done',
      'already_done',
      'already_done',
    ]);
    expect(await failure('batches:create', { ...request, name: 'Twice' })).toMatchObject({
      code: 'conflict',
    });
    expect((await call('batches:list'))[0]).toMatchObject({ id: created.id, status: 'finished' });
  }, 90_000);

  it('pauses and resumes a batch; refuses to pause a finished one', async () => {
    const scan = await call('ingest:scan', { inputs: [join(PRODUCT_FIXTURES_DIR, 'cap-red')] });
    const request = {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: SHOOT,
      video: null,
      includeDone: true,
    };
    const created = await call('batches:create', { ...request, name: 'Caps' });
    const paused = await call('batches:pause', { id: created.id });
    expect(paused).toMatchObject({ status: 'paused', statusReason: 'user' });
    const resumed = await call('batches:resume', { id: created.id });
    expect(resumed.status).toBe('running');
    await expect
      .poll(async () => (await call('batches:get', { id: created.id })).status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe('finished');
    expect(await failure('batches:pause', { id: created.id })).toMatchObject({ code: 'conflict' });
  }, 90_000);

  it("lets the user pick a product's hero, which the batch then sends first", async () => {
    const scan = await call('ingest:scan', { inputs: [join(PRODUCT_FIXTURES_DIR, 'cap-red')] });
    const files = scan.products[0]!.photos.map((photo) => basename(photo.file));
    expect(files).toEqual(['solidus_cap_red_1.png', 'solidus_cap_red_2.png', 'solidus_cap_red_3.png']);

    const picked = await call('ingest:hero', { scanId: scan.scanId, product: 'cap-red', photo: 2 });
    expect(picked.photos.map((photo) => basename(photo.file))).toEqual([
      'solidus_cap_red_3.png',
      'solidus_cap_red_1.png',
      'solidus_cap_red_2.png',
    ]);
    expect(picked.photos[0]!.thumbnailUrl).toBe(scan.products[0]!.photos[2]!.thumbnailUrl);
    expect(
      await failure('ingest:hero', { scanId: scan.scanId, product: 'cap-blue', photo: 0 }),
    ).toMatchObject({ code: 'not_found' });
    expect(await failure('ingest:hero', { scanId: scan.scanId, product: 'cap-red', photo: 3 })).toMatchObject(
      { code: 'bad_request', message: 'cap-red has 3 photos, not 4.' },
    );
    expect(await failure('ingest:hero', { scanId: 'gone', product: 'cap-red', photo: 0 })).toMatchObject({
      code: 'not_found',
    });

    const created = await call('batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: SHOOT,
      video: null,
      includeDone: true,
      name: 'Hero',
    });
    const db = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    const row = db.prepare('SELECT photos FROM products WHERE batch_id = ?').get(created.id) as {
      photos: string;
    };
    db.close();
    const stored = JSON.parse(row.photos) as Array<{ source: string }>;
    expect(stored.map((photo) => basename(photo.source))).toEqual([
      'solidus_cap_red_3.png',
      'solidus_cap_red_1.png',
      'solidus_cap_red_2.png',
    ]);
    await call('batches:cancel', { id: created.id });
  }, 30_000);
});
