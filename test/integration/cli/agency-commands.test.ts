import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN, adbatch, serviceRunArgs } from '../../support/cli.ts';
import { adbatchInProcess } from '../../support/cli-in-process.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// `adbatch brands`, `adbatch usage` and `adbatch run --brand` as a user runs them, against a real sandbox's
// agency (Northwind: Partner plan, Acme Outdoor and Bloom Cosmetics), the key in ADBATCH_API_KEY.

let service: DefaultHarness;
let dir: string;
let where: { dataDir: string; library: string };

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-agency-cli-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
});
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const withKey = (key: string) => ({ env: { ...process.env, ADBATCH_API_KEY: key } });
const url = () => service.sandbox.url;

describe('adbatch brands', () => {
  it('knows no brand in a folder nothing ran in, and creates nothing there', async () => {
    const empty = join(dir, 'never-used');
    const listed = await adbatch(['brands', '--data-dir', empty]);
    expect(listed).toMatchObject({ code: 0, stdout: 'No client brands known here yet.\n' });
    expect(existsSync(empty)).toBe(false);
  });

  it('lists the brands the key sees, adds one, and refuses a fourth on the Partner plan in words', async () => {
    const listed = await adbatch(
      ['brands', '--base-url', url(), '--data-dir', where.dataDir, '--json'],
      withKey(service.keys.agency),
    );
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((brand) => brand.name).sort()).toEqual([
      'Acme Outdoor',
      'Bloom Cosmetics',
    ]);
    const added = await adbatch(
      ['brands', 'add', 'Cedar Home', '--base-url', url(), '--data-dir', where.dataDir],
      withKey(service.keys.agency),
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Created the client brand Cedar Home \(brand_[0-9a-z_]+\)\.\n$/);
    const refused = await adbatch(
      ['brands', 'add', 'Delta', '--base-url', url(), '--data-dir', where.dataDir],
      withKey(service.keys.agency),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/quota of client brands is reached \(Partner 3, Agency Pro 10/);
    const text = await adbatch(['brands', '--data-dir', where.dataDir]);
    expect(text.stdout).toMatch(/^Acme Outdoor\s+Northwind Agency\s+no cap\s+0 this month$/m);
    expect(text.stdout.split('\n').filter(Boolean)).toHaveLength(3);
  });
});

describe('adbatch run --brand and adbatch usage', () => {
  it('bills the brand, refuses a batch its cap cannot cover, and reconciles with the service', async () => {
    const capped = await adbatch(['brands', 'cap', 'acme outdoor', '2', '--data-dir', where.dataDir]);
    expect(capped.stdout).toBe('Acme Outdoor: at most 2 credits a month (0 this month so far).\n');
    const inputs = await makeProductFolders(join(dir, 'products'), 3);
    const refused = await adbatch(
      serviceRunArgs(inputs, url(), where, ['--brand', 'Acme Outdoor']),
      withKey(service.keys.agencyPinned),
    );
    // The quote (3 credits) passes the 2 left: nothing starts.
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(
      /Acme Outdoor's \w+ budget of 2 credits: 2 credits left, not enough for this batch/,
    );
    expect(refused.stderr).toMatch(
      /This batch costs 3 credits; Acme Outdoor's \w+ budget of 2 credits has 2 left/,
    );

    const two = await adbatch(
      serviceRunArgs(inputs.slice(0, 2), url(), where, ['--brand', 'Acme Outdoor']),
      withKey(service.keys.agencyPinned),
    );
    expect(two.code, two.stderr).toBe(EXIT.ok);
    // The pinned key sees only Acme: taken as pinned, so no warning about attribution.
    expect(two.stderr).not.toMatch(/not pinned/);

    const more = await adbatch(
      serviceRunArgs(inputs.slice(2), url(), where, ['--brand', 'Acme Outdoor', '--include-done']),
      withKey(service.keys.agencyPinned),
    );
    expect(more.code).toBe(1);
    expect(more.stderr).toMatch(/has 0 left/);

    const usage = await adbatch(
      ['usage', '--brand', 'Acme Outdoor', '--base-url', url(), '--data-dir', where.dataDir],
      withKey(service.keys.agency),
    );
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.stdout).toMatch(/^Acme Outdoor\s+2\s+0\s+2\s+0\s+0\s+2\s+2\s+0$/m);
    expect(usage.stdout).toMatch(/Acme Outdoor: Matched: 2 credits on both sides\./);

    const csv = await adbatch(['usage', '--brand', 'Acme Outdoor', '--csv', '--data-dir', where.dataDir]);
    // UTF-8's byte-order mark first, for Excel, by default (core/util/csv.ts); --no-bom leaves it out.
    expect(csv.stdout.startsWith('\uFEFF')).toBe(true);
    const rows = csv.stdout.slice(1).trimEnd().split('\r\n');
    expect(rows[0]).toBe('date,batch,product,kind,settings,credits_charged,credits_refunded,job_id');
    expect(rows.slice(1).map((row) => row.split(',')[5])).toEqual(['1', '1']);
    const bare = await adbatch([
      'usage',
      '--brand',
      'Acme Outdoor',
      '--csv',
      '--no-bom',
      '--data-dir',
      where.dataDir,
    ]);
    expect(bare.stdout).toBe(csv.stdout.slice(1));

    const json = JSON.parse(
      (
        await adbatch([
          'usage',
          '--json',
          '--from',
          '2020-01-01',
          '--to',
          '2020-01-31',
          '--data-dir',
          where.dataDir,
        ])
      ).stdout,
    ) as { totals: { net: number }; period: { from: number; to: number } };
    expect(json.totals.net).toBe(0);
    expect(json.period).toEqual({ from: Date.UTC(2020, 0, 1), to: Date.UTC(2020, 1, 1) });
    const badDay = await adbatchInProcess(['usage', '--from', '2026-02-30', '--data-dir', where.dataDir]);
    expect(badDay.stderr).toMatch(/a day is written YYYY-MM-DD/);
  }, 60_000);

  it("warns that an unpinned key's batch is not attributed to the brand at the service", async () => {
    const inputs = await makeProductFolders(join(dir, 'bloom'), 1);
    const first = await adbatch(
      serviceRunArgs(inputs.slice(0, 1), url(), where, ['--brand', 'Bloom Cosmetics', '--include-done']),
      withKey(service.keys.agency),
    );
    expect(first.code, first.stderr).toBe(EXIT.ok);
    expect(first.stderr).toMatch(
      /is not pinned to a brand: the service will not attribute this batch's spend to Bloom Cosmetics/,
    );
  }, 60_000);
});

describe('a cap across a kill -9 and a resume', () => {
  it('stops the batch exactly at the cap, the interrupted create counted, no ledger entry written twice', async () => {
    const data = { dataDir: join(dir, 'kill-data'), library: join(dir, 'kill-library') };
    const inputs = await makeProductFolders(join(dir, 'kill'), 8);
    // Every create takes 400 ms at the service, two requests a second at most: the kill lands while one is
    // in flight and others are still waiting.
    await service.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'delay', delay_ms: 400 });
    const before = (await service.client.jobs()).length;
    const acmeAtService = async () =>
      (
        await service.client.call<{ totals: { credits: number } }>('GET', '/v1/usage', {
          key: service.keys.agencyPinned,
        })
      ).body.totals.credits;
    const spentBefore = await acmeAtService();
    const run = startChild(
      [
        ADBATCH_BIN,
        ...serviceRunArgs(inputs, url(), data, [
          '--brand',
          'Acme Outdoor',
          '--include-done',
          '--rate-limit',
          '2/1s',
        ]),
      ],
      withKey(service.keys.agencyPinned).env,
    );
    // Killed once a create was answered and another is at the service, unanswered.
    const inFlight = async () =>
      (await service.client.jobs()).length > before &&
      (await service.client.requestLog()).some(
        (entry) => entry.method === 'POST' && entry.path === '/v1/shoots' && entry.status === null,
      );
    for (let tries = 0; !(await inFlight()); tries++) {
      if (tries > 1000) throw new Error(`no create was in flight:\n${run.output()}`);
      await sleep(5);
    }
    await run.kill();
    await service.client.clearFaults();

    const brands = JSON.parse(
      (await adbatch(['brands', '--json', '--data-dir', data.dataDir])).stdout,
    ) as Array<{
      name: string;
      committedThisMonth: number;
    }>;
    const committed = brands.find((brand) => brand.name === 'Acme Outdoor')!.committedThisMonth;
    expect(committed).toBeGreaterThanOrEqual(2);
    expect(committed).toBeLessThan(8);
    const cap = committed + 1;
    await adbatch(['brands', 'cap', 'Acme Outdoor', String(cap), '--data-dir', data.dataDir]);

    const resumed = await adbatch(
      ['resume', '--data-dir', data.dataDir, '--rate-limit', '2/1s'],
      withKey(service.keys.agencyPinned),
    );
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(EXIT.stoppedAtCap);
    expect(resumed.stderr).toMatch(new RegExp(`Acme Outdoor's \\w+ budget of ${cap} credits is reached`));

    const db = new Database(join(data.dataDir, 'adbatch.db'), { readonly: true });
    try {
      const sums = db
        .prepare(
          `SELECT
             SUM(CASE type WHEN 'charge' THEN credits WHEN 'at_stake' THEN credits ELSE 0 END) -
             SUM(CASE type WHEN 'refund' THEN credits WHEN 'at_stake_released' THEN credits ELSE 0 END) AS committed,
             COUNT(*) AS entries, COUNT(DISTINCT job_id || ':' || attempt || ':' || type) AS distinct_entries,
             SUM(type = 'at_stake') AS stakes
           FROM ledger`,
        )
        .get() as { committed: number; entries: number; distinct_entries: number; stakes: number };
      expect(sums.committed).toBe(cap);
      expect(sums.entries).toBe(sums.distinct_entries);
      expect(sums.stakes).toBeGreaterThanOrEqual(1);
    } finally {
      db.close();
    }
    // The service charged no more than the cap allows (this data folder's batch is all of its spend here).
    expect((await acmeAtService()) - spentBefore).toBeLessThanOrEqual(cap);
  }, 90_000);
});
