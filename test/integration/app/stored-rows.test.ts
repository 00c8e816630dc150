import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportSnapshot } from '../../../src-main/core/export/export-records.ts';
import { BUILT_IN_RECIPES } from '../../../src-main/core/export/recipes.ts';
import { DEFAULT_SELECTION } from '../../../src-main/core/export/selection.ts';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { AccountView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  refusalOf,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { type CoreOnSandbox, startCoreOnSandbox } from '../../support/core-on-sandbox.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import type { DefaultHarness } from '../../support/sandbox-harness.ts';

// Stored JSON is parsed on read (core/db/stored.ts): a row damaged by SQL written straight into the data
// folder's real SQLite file is reported as unreadable, saying which and why, and everything beside it works
// on. Against a real sandbox over HTTP, whose request log shows that nothing is sent for an unreadable plan.

let world: CoreOnSandbox;
let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let account: AccountView;
let db: Database.Database;

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  world = await startCoreOnSandbox('adbatch-stored-');
  ({ service, h, products, account } = world);
  // A second connection to the core's own file, as a hand edit or a damaged disk would reach it.
  db = new Database(join(h.dir, 'data', 'adbatch.db'));
}, 30_000);
afterAll(async () => {
  db?.close();
  await world?.close();
});

const shootsSent = async () =>
  (await service.client.requestLog()).filter(
    (entry) => entry.method === 'POST' && entry.path === '/v1/shoots',
  ).length;

describe('an agent’s request whose plan does not parse', () => {
  it('is listed saying why, cannot be approved (it expires, nothing sent), and the others are approved as ever', async () => {
    const submit = async (name: string) => {
      const scan = await call('ingest:scan', { inputs: await makeProductFolders(join(products, name), 1) });
      const quote = await call('agents:quote', {
        client: 'Test agent',
        request: {
          scanId: scan.scanId,
          accountId: account.id,
          shoot: QUICK_SHOOT,
          video: null,
          includeDone: true,
          name,
        },
      });
      return call('agents:submit', { client: 'Test agent', quoteId: quote.quoteId, clientRequestId: name });
    };
    const damaged = await submit('damaged');
    const sound = await submit('sound');
    db.prepare(
      "UPDATE agent_requests SET request = json_set(request, '$.request.shoot.style', 'watercolour') WHERE id = ?",
    ).run(damaged.id);

    const why = new RegExp(
      `^The plan of agent request ${damaged.id} cannot be read: request\\.shoot\\.style: Invalid option`,
    );
    const listed = await call('agents:requests');
    expect(listed.find((request) => request.id === damaged.id)).toMatchObject({
      state: 'pending',
      settings: 'a plan that cannot be read',
      products: 0,
      reason: expect.stringMatching(why),
    });
    expect(listed.find((request) => request.id === sound.id)).toMatchObject({
      state: 'pending',
      products: 1,
      reason: null,
    });

    const before = await shootsSent();
    const refused = await call('agents:approve', { id: damaged.id });
    expect(refused).toMatchObject({ state: 'expired', batchId: null, reason: expect.stringMatching(why) });
    expect(refused.reason).toMatch(/Nothing was made: ask the agent to quote again\.$/);
    expect(await shootsSent()).toBe(before);

    const approved = await call('agents:approve', { id: sound.id });
    expect(approved).toMatchObject({ state: 'created', batchId: expect.any(String) });
  });
});

describe('an export whose snapshot does not parse', () => {
  const snapshot = (destination: string): ExportSnapshot => ({
    items: [],
    recipes: BUILT_IN_RECIPES.filter((recipe) => recipe.id === 'original'),
    selection: DEFAULT_SELECTION,
    date: '2026-11-23',
    destination,
    zip: null,
    manifest: { csv: true, json: false },
    acceptWarnings: [],
  });
  /** An export a kill interrupted, as its run left it. */
  const interrupted = (id: string, at: number) => {
    const destination = join(h.dir, 'exports', id);
    db.prepare(
      `INSERT INTO exports (id, created_at, state, destination, request, snapshot, owner_pid, message)
       VALUES (?, ?, 'interrupted', ?, ?, ?, NULL, 'The export was interrupted.')`,
    ).run(id, at, destination, `{"id":"${id}"}`, JSON.stringify(snapshot(destination)));
  };

  it('is listed as unreadable with why, refuses to resume, is discarded; the other is listed as ever', async () => {
    interrupted('export-sound', 1);
    interrupted('export-damaged', 2);
    db.prepare(
      "UPDATE exports SET snapshot = json_set(snapshot, '$.selection.rule', 'everything') WHERE id = 'export-damaged'",
    ).run();

    const listed = await call('export:list');
    const damaged = listed.find((view) => view.id === 'export-damaged');
    const why = /^Export export-damaged's snapshot cannot be read: selection\.rule: Invalid option/;
    expect(damaged).toMatchObject({ state: 'interrupted', resumable: false, recipes: [], total: 0 });
    expect(damaged?.message).toMatch(why);
    expect(listed.find((view) => view.id === 'export-sound')).toMatchObject({
      state: 'interrupted',
      resumable: true,
      recipes: ['Original'],
      message: 'The export was interrupted.',
    });

    expect(await call('export:get', { id: 'export-damaged' })).toMatchObject({ files: [], resumable: false });
    const refusal = await refusalOf(h.core, 'export:resume', { id: 'export-damaged' });
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toMatch(
      /^Export export-damaged cannot be resumed: Export export-damaged's snapshot/,
    );

    expect(await call('export:discard', { id: 'export-damaged' })).toBeNull();
    expect(await call('export:get', { id: 'export-damaged' })).toMatchObject({ state: 'cancelled' });
  });
});

describe('photo storage whose saved row does not parse', () => {
  it('is refused with why in Settings and before a batch needs it; set up again or removed, all works', async () => {
    db.prepare(
      `INSERT INTO photo_storage (id, bucket, prefix, url_ttl_seconds, checked_at)
       VALUES (1, 'adbatch-photos', 'adbatch/', 3600, 1)`,
    ).run();
    expect(await call('storage:get')).toMatchObject({ bucket: 'adbatch-photos', urlTtlHours: 1 });

    db.prepare("UPDATE photo_storage SET checked_at = 'yesterday'").run();
    const why =
      /^The photo storage saved in this data folder cannot be read: checked_at: Invalid input: expected number, received string\. Set the storage up again in Settings, or remove it\.$/;
    expect((await refusalOf(h.core, 'storage:get', undefined)).message).toMatch(why);
    // A batch on a service account whose photos are on this computer needs the storage: refused with why.
    const scan = await call('ingest:scan', { inputs: await makeProductFolders(join(products, 'stored'), 1) });
    const quote = {
      scanId: scan.scanId,
      accountId: account.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
    };
    expect((await refusalOf(h.core, 'batches:quote', quote)).message).toMatch(why);

    expect(await call('storage:clear')).toBeNull();
    expect(await call('storage:get')).toBeNull();
    expect(await call('batches:quote', quote)).toMatchObject({ credits: 1 });
  });
});

describe('a job whose settings do not parse', () => {
  it('is refused saying which job and why; the client statement keeps its row and its credits', async () => {
    const [folder] = await makeProductFolders(join(products, 'statement'), 1);
    const batchId = await finishedBatch(h.core, { inputs: [folder!], name: 'Statement' });
    const owner = { kind: 'account' as const, accountId: 'sandbox', name: 'Sandbox' };
    const period = { from: 0, to: Date.now() + 86_400_000 };
    const before = await call('usage:statement', { ...period, owner });
    const job = db.prepare<[string], { id: string }>('SELECT id FROM jobs WHERE batch_id = ?').get(batchId)!;
    db.prepare("UPDATE jobs SET settings = json_set(settings, '$.style', 'watercolour') WHERE id = ?").run(
      job.id,
    );

    const refusal = await refusalOf(h.core, 'jobs:get', { id: job.id });
    expect(refusal.code).toBe('internal');
    expect(refusal.message).toMatch(
      new RegExp(`^Job ${job.id}'s settings cannot be read: style: Invalid option`),
    );

    const after = await call('usage:statement', { ...period, owner });
    expect(after.totals).toEqual(before.totals);
    expect(after.rows.find((row) => row.jobId === job.id)?.settings).toMatch(
      new RegExp(`^\\(Job ${job.id}'s settings cannot be read: style: Invalid option`),
    );
    expect(after.rows.filter((row) => row.jobId !== job.id)).toEqual(
      before.rows.filter((row) => row.jobId !== job.id),
    );
  }, 60_000);
});

describe('saved settings that do not parse', () => {
  it('fall back to their defaults field by field, keep every valid field, and are said once', async () => {
    const settings = await startCoreHarness({
      preferences: {
        libraryDir: 42,
        budgetMarginPercent: 10,
        lastBatch: { accountId: 'sandbox', shoot: { style: 'watercolour' }, video: null, videoWhen: null },
        agentServer: { enabled: false, port: 4100, token: 'kept' },
      },
    });
    try {
      const read = await callCore(settings.core, 'settings:get');
      expect(read).toEqual({
        libraryDir: join(settings.dir, 'library'),
        budgetMarginPercent: 10,
        agentServer: { enabled: false, port: 4100, token: 'kept' },
        // A preference never set is shown at its default (the CSV files' byte-order mark: core/util/csv.ts).
        csvBom: true,
      });
      expect(await callCore(settings.core, 'batches:lastSettings')).toBeNull();
      await callCore(settings.core, 'settings:get');
      const warnings = settings.logs.filter((line) => line.startsWith('warn Saved settings'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /cannot be read are back to their defaults: libraryDir \(Invalid input: expected string, received number\); lastBatch \(shoot\.style: Invalid option/,
      );
      // The next save writes the fields as read: the damaged ones healed, the valid ones kept.
      expect(await callCore(settings.core, 'settings:set', { budgetMarginPercent: 5 })).toEqual({
        ...read,
        budgetMarginPercent: 5,
      });
    } finally {
      await settings.close();
    }
  });
});
