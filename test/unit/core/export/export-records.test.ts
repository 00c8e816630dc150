import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../../../src-main/core/db/open.ts';
import { ExportRecords, type ExportSnapshot } from '../../../../src-main/core/export/export-records.ts';
import { builtInRecipe } from '../../../../src-main/core/export/recipes.ts';
import { DEFAULT_SELECTION } from '../../../../src-main/core/export/selection.ts';
import { placedFile } from '../../../support/export-item.ts';

// What the exports table and the files they placed keep over time, on a real SQLite file: the newest ended
// exports and every running or interrupted one; the placed files of the folders those still name.

let dir: string;
let db: Db;
let clock: number;
let records: ExportRecords;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-export-records-'));
  db = openDatabase(join(dir, 'adbatch.db'));
  clock = 1_000;
  records = new ExportRecords(db, () => clock++);
});

afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function snapshot(destination: string): ExportSnapshot {
  return {
    items: [],
    recipes: [],
    selection: DEFAULT_SELECTION,
    date: '2026-11-23',
    destination,
    zip: null,
    manifest: { csv: true, json: true },
    acceptWarnings: [],
  };
}

function placedOnce(destination: string): void {
  records.rememberPlaced(destination, placedFile('Web/hat-01.webp', 'sha'));
}

describe('export records pruned', () => {
  it('keeps the newest ended exports, every running or interrupted one, and the files of the folders they name', () => {
    const ids = Array.from({ length: 6 }, (_, at) => `e${at}`);
    for (const [at, id] of ids.entries()) {
      records.create({ id, request: id, snapshot: snapshot(`/exports/${at}`), ownerPid: process.pid });
      placedOnce(`/exports/${at}`);
    }
    // e1 still runs and e2 was interrupted: both outlive the pruning, however old.
    records.finish('e0', 'done', null, null);
    records.finish('e2', 'interrupted', null, null);
    for (const id of ids.slice(3)) records.finish(id, 'done', null, null);
    records.prune(2);
    expect(records.recent(10).map((record) => [record.id, record.state])).toEqual([
      ['e5', 'done'],
      ['e4', 'done'],
      ['e2', 'interrupted'],
      ['e1', 'running'],
    ]);
    const folders = ['/exports/0', '/exports/1', '/exports/2', '/exports/3', '/exports/4', '/exports/5'];
    expect(folders.map((folder) => records.placedIn(folder).length)).toEqual([0, 1, 1, 0, 1, 1]);
  });
});

describe('the recipes of recent exports, per brand', () => {
  /** A batch billed to `brandId` (null: to none), as the queue writes one. */
  function batch(id: string, brandId: string | null): void {
    db.prepare(
      `INSERT INTO batches (id, name, created_at, base_url, key_id, key_hint, library_dir, shoot_settings,
         quoted_credits, status, updated_at, brand_id)
       VALUES (?, ?, 0, 'sandbox', 'k', '…', '/library', '{}', 0, 'finished', 0, ?)`,
    ).run(id, id, brandId);
  }

  function exported(id: string, batchId: string, recipes: string[]): void {
    records.create({
      id,
      request: JSON.stringify({ scope: { batchIds: [batchId] } }),
      snapshot: { ...snapshot(`/exports/${id}`), recipes: recipes.map((one) => builtInRecipe(one)!) },
      ownerPid: process.pid,
    });
  }

  it("lists the newest exports' recipes once each, of the brand's batches only", () => {
    db.prepare(
      "INSERT INTO brands (id, base_url, remote_id, name, created_at) VALUES ('acme', 'x', 'r1', 'Acme', 0)",
    ).run();
    batch('b-none', null);
    batch('b-acme', 'acme');
    exported('e1', 'b-none', ['web']);
    exported('e2', 'b-acme', ['shopify', 'amazon-main']);
    exported('e3', 'b-acme', ['amazon-main', 'instagram-feed']);
    expect(records.recentRecipes('acme').map((recipe) => recipe.id)).toEqual([
      'amazon-main',
      'instagram-feed',
      'shopify',
    ]);
    expect(records.recentRecipes(null).map((recipe) => recipe.id)).toEqual(['web']);
    // Only the newest export counted: the older one's Shopify is left out.
    expect(records.recentRecipes('acme', 1).map((recipe) => recipe.id)).toEqual([
      'amazon-main',
      'instagram-feed',
    ]);
  });
});
