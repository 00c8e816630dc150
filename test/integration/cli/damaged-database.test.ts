import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch, sandboxRunArgs } from '../../support/cli.ts';
import { damageTable, fingerprint, quickCheckOf } from '../../support/damaged-database.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// A damaged database is refused, never read as empty (issue 27, point 7). A real batch run by `adbatch
// run` on the sandbox leaves its automatic backup; then a page of the batches table is overwritten with
// garbage, as a failing disk does. `adbatch resume` once answered "Every batch has finished." and exited 0.

const DAMAGED_EXIT = 8;
let dir: string;
let where: { dataDir: string; library: string };
let database: string;
let batchId: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-damaged-cli-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  database = join(where.dataDir, 'adbatch.db');
  const products = join(dir, 'products');
  await makeProductFolders(products, 2);
  const run = await adbatch(sandboxRunArgs([products], where));
  expect(run.code, run.stderr).toBe(0);
  batchId = /Batch (b_[0-9a-f]+) started/.exec(run.stdout)![1]!;
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a damaged database', () => {
  it('leaves a sound backup of the batch as it started', async () => {
    const [name, ...more] = await readdir(join(where.dataDir, 'backups'));
    expect(more).toEqual([]);
    expect(name).toMatch(/^adbatch-\d{4}-\d{2}-\d{2}-\d{6}\.db$/);
    expect(quickCheckOf(join(where.dataDir, 'backups', name!))).toEqual(['ok']);
  });

  it('is refused by status, resume and mcp in one sentence, with its exit status, and nothing changed', async () => {
    const backup = join(where.dataDir, 'backups', (await readdir(join(where.dataDir, 'backups')))[0]!);
    // Learned durations: a table no command here reads, so only the check at the open can find the damage.
    damageTable(database, 'duration_samples');
    expect(quickCheckOf(database)).not.toEqual(['ok']);
    const before = fingerprint(database);
    const sentence = `adbatch: Adbatch's database ${database} is damaged, so Adbatch changed nothing in it and sends nothing: to restore the last automatic backup, quit Adbatch, move adbatch.db, adbatch.db-wal and adbatch.db-shm out of ${where.dataDir}, and copy ${backup} there as adbatch.db; its unfinished batches come back paused for you to check.\n`;
    for (const command of [
      ['status'],
      ['status', '--json'],
      ['resume'],
      ['mcp', '--library', where.library],
    ]) {
      const refused = await adbatch([...command, '--data-dir', where.dataDir]);
      expect(refused.code, `${command.join(' ')}: ${refused.stderr}`).toBe(DAMAGED_EXIT);
      expect(refused.stderr).toBe(sentence);
      expect(refused.stdout).toBe('');
    }
    expect(fingerprint(database)).toBe(before);

    // The sentence's way back works: the batch is there again, as it was when it started.
    const aside = join(dir, 'damaged');
    await mkdir(aside);
    for (const name of await readdir(where.dataDir)) {
      if (name.startsWith('adbatch.db')) await rename(join(where.dataDir, name), join(aside, name));
    }
    await copyFile(backup, database);
    const status = await adbatch(['status', '--data-dir', where.dataDir]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^${batchId}  `, 'm'));

    // It comes back paused: what the backup shows unsent may have been sent after it (what `adbatch resume`
    // does without --yes is in test/integration/app/restored-backup.test.ts, where the backup is made to hold
    // unsent jobs); the person's --yes goes on with it.
    expect(status.stdout).toMatch(
      new RegExp(
        `^${batchId}  paused: restored from a backup  .*\n.*\n    Restored from the backup of \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}: `,
        'm',
      ),
    );
    const resumed = await adbatch(['resume', '--yes', '--time-scale', '0.02', '--data-dir', where.dataDir]);
    expect(resumed.stdout).toContain(`Resuming ${batchId}`);
    expect(resumed.stderr).not.toContain('Add --yes');
    expect((await adbatch(['status', '--data-dir', where.dataDir])).stdout).toMatch(
      new RegExp(`^${batchId}  finished  `, 'm'),
    );
  }, 120_000);

  it('emptied beside its backups, is refused by status and resume, not read as "no batches"', async () => {
    const names = (await readdir(join(where.dataDir, 'backups'))).sort();
    const newest = join(where.dataDir, 'backups', names.at(-1)!);
    for (const name of ['', '-wal', '-shm']) await rm(`${database}${name}`, { force: true });
    await writeFile(database, '');
    for (const command of [['status'], ['resume']]) {
      const refused = await adbatch([...command, '--data-dir', where.dataDir]);
      expect(refused.code, `${command.join(' ')}: ${refused.stderr}`).toBe(DAMAGED_EXIT);
      expect(refused.stderr).toContain(`is damaged, so Adbatch changed nothing in it and sends nothing`);
      expect(refused.stderr).toContain(`and copy ${newest} there as adbatch.db;`);
      expect(refused.stdout).toBe('');
    }
    expect((await stat(database)).size).toBe(0);
  });

  it('gone beside its backups, is refused by status, resume and mcp, and no new one is made', async () => {
    for (const name of ['', '-wal', '-shm']) await rm(`${database}${name}`, { force: true });
    for (const command of [['status'], ['resume'], ['mcp', '--library', where.library]]) {
      const refused = await adbatch([...command, '--data-dir', where.dataDir]);
      expect(refused.code, `${command.join(' ')}: ${refused.stderr}`).toBe(DAMAGED_EXIT);
      expect(refused.stderr).toContain(`Adbatch's database ${database} is missing though`);
      expect(refused.stdout).toBe('');
    }
    expect(existsSync(database)).toBe(false);
  });
});
