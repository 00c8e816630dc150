import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, finishedBatch, refusalOf, startCoreHarness } from '../../support/core-harness.ts';
import { damageTable, fingerprint, quickCheckOf } from '../../support/damaged-database.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// A damaged database through the app's start (createCore, as src-main/index.ts and the harness call it) and
// its handler map (issue 27, point 7): refused at the start in the sentence the app's dialog shows, and
// answered in the same sentence by a handler that meets the damage later; the backup a batch's start takes.

let dir: string;
let h: CoreHarness | null = null;
let batchId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-damaged-core-'));
  await makeProductFolders(join(dir, 'products'), 2);
  h = await startCoreHarness({ dir });
  batchId = await finishedBatch(h.core, { inputs: [join(dir, 'products')], name: 'Spring' });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const dataDir = () => join(dir, 'data');
const database = () => join(dataDir(), 'adbatch.db');
async function backup(): Promise<string> {
  const [name, ...more] = await readdir(join(dataDir(), 'backups'));
  expect(more).toEqual([]);
  return join(dataDir(), 'backups', name!);
}
const sentence = (backupFile: string) =>
  `Adbatch's database ${database()} is damaged, so Adbatch changed nothing in it and sends nothing: to restore the last automatic backup, quit Adbatch, move adbatch.db, adbatch.db-wal and adbatch.db-shm out of ${dataDir()}, and copy ${backupFile} there as adbatch.db; its unfinished batches come back paused for you to check.`;

describe('the automatic backup', () => {
  it('is taken as a batch starts, opens clean and holds the batch', async () => {
    const file = await backup();
    expect(quickCheckOf(file)).toEqual(['ok']);
    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.prepare('SELECT id, name FROM batches').all()).toEqual([{ id: batchId, name: 'Spring' }]);
    } finally {
      copy.close();
    }
  });
});

describe('a damaged database', () => {
  it('met by a handler later is answered in the sentence, not as "something went wrong"', async () => {
    // The core's connection is open, as the app's is when a disk fails under it; its results are read from a
    // page it has not read yet.
    damageTable(database(), 'assets');
    expect(await refusalOf(h!.core, 'review:get', { batchId })).toEqual({
      code: 'damaged_database',
      message: sentence(await backup()),
    });
  });

  it('is refused by createCore in the sentence the app shows, with nothing changed', async () => {
    await h!.close();
    h = null;
    damageTable(database(), 'batches');
    const before = fingerprint(database());
    const expected = sentence(await backup());
    await expect(startCoreHarness({ dir })).rejects.toThrow(expected);
    expect(fingerprint(database())).toBe(before);
  });

  it('emptied beside its backup, is refused by createCore in the same sentence, not made afresh', async () => {
    for (const name of ['', '-wal', '-shm']) await rm(`${database()}${name}`, { force: true });
    await writeFile(database(), '');
    const expected = sentence(await backup());
    await expect(startCoreHarness({ dir })).rejects.toThrow(expected);
    expect((await stat(database())).size).toBe(0);
  });

  it('gone beside its backup, is refused by createCore, not made afresh', async () => {
    await rm(database(), { force: true });
    await expect(startCoreHarness({ dir })).rejects.toThrow(
      `Adbatch's database ${database()} is missing though ${dataDir()} holds its automatic backups, so Adbatch made no new one and sends nothing: to restore the last one`,
    );
    expect(existsSync(database())).toBe(false);
  });
});
