import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { BrandView, ExportRequest } from '../../../src-main/shared/models.ts';
import { adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  pickResults,
  startCoreHarness,
  untilFinished,
} from '../../support/core-harness.ts';
import { ACCEPT_ALL } from '../../support/export-item.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { untilValue } from '../../support/until.ts';

// Export remembers (issue 31, point 4), on a real SQLite file and batches the sandbox made over HTTP for
// two client brands of its agency: each front end's last recipes and folder per brand, the app's and the
// CLI's apart; `adbatch export` without `--to` goes where the CLI last exported that brand and says so in
// one line, `--to last-app` takes the app's, and a brand the CLI never exported is asked for a folder; and
// what the picks leave out (`note: 1 photo not picked …`) and a result whose file is not downloaded said.

let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let out: string;
let acme: BrandView;
let bloom: BrandView;
let acmeBatch: string;
let bloomBatch: string;

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

/** A finished batch of `count` products, one shot each, billed to the brand, the first `picked` picked. */
async function pickedBatch(
  name: string,
  count: number,
  picked: number,
  accountId: string,
  brandId: string,
): Promise<string> {
  const dirs = await makeProductFolders(join(products, name), count);
  const scan = await call('ingest:scan', { inputs: dirs });
  const batch = await call('batches:create', {
    scanId: scan.scanId,
    shoot: QUICK_SHOOT,
    video: null,
    includeDone: true,
    name,
    accountId,
    brandId,
  });
  await untilFinished(h.core, batch.id);
  const items = (await call('review:get', { batchId: batch.id })).items;
  expect(items).toHaveLength(count);
  await pickResults(
    h.core,
    batch.id,
    items.slice(0, picked).map((item) => item.id),
  );
  return batch.id;
}

/** An export started as a front end does, run to its end. */
async function exported(request: ExportRequest): Promise<void> {
  const started = await call('export:start', { ...request, acceptWarnings: ACCEPT_ALL });
  const ended = await untilValue(async () => {
    const detail = await call('export:get', { id: started.id });
    return detail.state === 'running' ? null : detail;
  });
  expect(ended.state).toBe('done');
}

const dataDir = () => join(h.dir, 'data');

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  h = await startCoreHarness();
  products = await mkdtemp(join(tmpdir(), 'adbatch-last-choice-'));
  out = join(h.dir, 'exports');
  const agency = await call('accounts:add', {
    name: 'Northwind',
    baseUrl: service.sandbox.url,
    apiKey: service.keys.agency,
  });
  const brands = await call('brands:refresh', { accountId: agency.id });
  acme = brands.find((brand) => brand.name === 'Acme Outdoor')!;
  bloom = brands.find((brand) => brand.name === 'Bloom Cosmetics')!;
  acmeBatch = await pickedBatch('acme', 3, 2, agency.id, acme.id);
  bloomBatch = await pickedBatch('bloom', 1, 1, agency.id, bloom.id);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await service?.close();
  if (products) await rm(products, { recursive: true, force: true });
});

describe('the last export per brand', () => {
  it('is remembered per client brand, the app and the CLI each their own', async () => {
    const acmeScope = { batchIds: [acmeBatch] };
    expect(await call('export:lastChoice', { scope: acmeScope, from: 'app' })).toBeNull();

    await exported({
      scope: acmeScope,
      recipes: ['Shopify', 'web'],
      destination: join(out, 'acme-app'),
      rememberAs: 'app',
    });
    await exported({
      scope: acmeScope,
      recipes: ['original'],
      destination: join(out, 'acme-cli'),
      rememberAs: 'cli',
    });
    await exported({
      scope: { batchIds: [bloomBatch] },
      recipes: ['instagram-feed'],
      destination: join(out, 'bloom-app'),
      rememberAs: 'app',
    });
    // An export no front end asks to remember (MCP's) changes nobody's.
    await exported({ scope: acmeScope, recipes: ['web'], destination: join(out, 'agent') });

    expect(await call('export:lastChoice', { scope: acmeScope, from: 'app' })).toMatchObject({
      brand: 'Acme Outdoor',
      recipes: ['shopify', 'web'],
      destination: join(out, 'acme-app'),
    });
    expect(await call('export:lastChoice', { scope: acmeScope, from: 'cli' })).toMatchObject({
      brand: 'Acme Outdoor',
      recipes: ['original'],
      destination: join(out, 'acme-cli'),
    });
    expect(await call('export:lastChoice', { scope: { batchIds: [bloomBatch] }, from: 'app' })).toMatchObject(
      {
        brand: 'Bloom Cosmetics',
        recipes: ['instagram-feed'],
        destination: join(out, 'bloom-app'),
      },
    );
    expect(await call('export:lastChoice', { scope: { batchIds: [bloomBatch] }, from: 'cli' })).toBeNull();
    // Two brands in one scope are nobody's in particular: no memory of either is offered for them.
    expect(
      await call('export:lastChoice', { scope: { batchIds: [acmeBatch, bloomBatch] }, from: 'app' }),
    ).toBeNull();

    // Kept in the database file, one row per brand and front end.
    const db = new Database(join(dataDir(), 'adbatch.db'), { readonly: true });
    try {
      expect(
        db
          .prepare(
            'SELECT brand_key, front, recipes, destination FROM export_last_choice ORDER BY destination',
          )
          .all(),
      ).toEqual([
        {
          brand_key: acme.id,
          front: 'app',
          recipes: '["shopify","web"]',
          destination: join(out, 'acme-app'),
        },
        { brand_key: acme.id, front: 'cli', recipes: '["original"]', destination: join(out, 'acme-cli') },
        {
          brand_key: bloom.id,
          front: 'app',
          recipes: '["instagram-feed"]',
          destination: join(out, 'bloom-app'),
        },
      ]);
    } finally {
      db.close();
    }
  }, 120_000);

  it('adbatch export without --to goes where the CLI last exported the brand, and says so in one line', async () => {
    const again = await adbatch(['export', acmeBatch, '--data-dir', dataDir()]);
    // What the picks leave out, said as the app and MCP say it.
    expect(again.stderr).toBe('note: 1 photo not picked is not exported\n');
    expect(again.code).toBe(0);
    const lines = again.stdout.split('\n');
    expect(lines[0]).toBe(
      `to ${join(out, 'acme-cli')} with original (your last export for Acme Outdoor; --to to change)`,
    );
    // The same export again: found identical, nothing written twice.
    expect(again.stdout).toContain(
      `done: 0 written, 2 already there, 0 failed, into ${join(out, 'acme-cli')}`,
    );

    // The app's recipes warn of the sandbox's small results: written anyway, as the app's export was.
    const appFolder = await adbatch([
      ...['export', acmeBatch, '--to', 'last-app'],
      ...['--accept-warning', ACCEPT_ALL.join(','), '--data-dir', dataDir()],
    ]);
    expect(appFolder.code).toBe(0);
    expect(appFolder.stdout.split('\n')[0]).toBe(
      `to ${join(out, 'acme-app')} with shopify, web (the app's last export for Acme Outdoor; --to to change)`,
    );

    // A folder named by --to becomes the CLI's last for the brand; the app's stays as it was.
    const elsewhere = join(out, 'acme-elsewhere');
    const named = await adbatch(['export', acmeBatch, '--to', elsewhere, '--data-dir', dataDir()]);
    expect(named.code).toBe(0);
    expect(named.stdout).not.toContain('your last export');
    const acmeScope = { batchIds: [acmeBatch] };
    expect(await call('export:lastChoice', { scope: acmeScope, from: 'cli' })).toMatchObject({
      destination: elsewhere,
      recipes: ['original'],
    });
    expect(await call('export:lastChoice', { scope: acmeScope, from: 'app' })).toMatchObject({
      destination: join(out, 'acme-app'),
    });

    const never = await adbatch(['export', bloomBatch, '--data-dir', dataDir()]);
    expect(never.code).toBe(1);
    expect(never.stdout).toBe('');
    expect(never.stderr.trim()).toBe(
      'adbatch: say where with --to DIR (the CLI has not exported these batches’ brand before; --to last-app takes the app’s last folder)',
    );
  }, 120_000);

  it('says a result whose file is not on this computer is not exported', async () => {
    const [shot] = (await call('review:get', { batchId: bloomBatch })).items;
    // As a download that failed leaves it (`adbatch redownload` tries it again).
    const db = new Database(join(dataDir(), 'adbatch.db'));
    try {
      db.prepare("UPDATE assets SET state = 'failed', error = 'ECONNRESET' WHERE id = ?").run(shot!.id);
    } finally {
      db.close();
    }
    const plan = await call('export:plan', {
      scope: { batchIds: [bloomBatch] },
      recipes: ['original'],
      destination: join(out, 'bloom-plan'),
    });
    expect(plan.total).toBe(0);
    expect(plan.leftOut).toEqual(['1 photo not yet downloaded is not exported']);
  });
});
