import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartPath } from '../../../src-main/core/export/export-parts.ts';
import { placeFile } from '../../../src-main/core/export/place-file.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { NameClaims } from '../../../src-main/core/util/safe-names.ts';
import { listFiles, sha256Of } from '../../support/export-checks.ts';
import { exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';
import { gonePid } from '../../support/gone-pid.ts';

// Two exports writing into one folder at once (two of the designer's batches whose products share a
// handle, the app beside the CLI, an agent beside the designer), on a real disk: each writes its own
// `.part` (export-parts.ts) and places the bytes it reports; a run clears what a killed writer left and
// leaves another live export's `.part` alone. They once shared one `.part` per name: a writer failed with
// "EEXIST"/"ENOENT", or its name held the other's bytes.

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'adbatch-two-writers-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('two exports writing into one folder at once', () => {
  it('each places the bytes it reports, under the name or beside it, and leaves no .part', async () => {
    const destination = join(root, 'both');
    // Two runs, each with its own claims as two exports have; the same names, other bytes.
    const runs = [new NameClaims(), new NameClaims()];
    const names = Array.from({ length: 60 }, (_, index) => `Shopify/product-${index}.jpg`);
    const placing = names.flatMap((name) =>
      runs.map(async (claims, run) => {
        const bytes = Buffer.alloc(100_000 + run, run + 1);
        const placed = await placeFile({
          root: destination,
          plannedPath: name,
          content: { bytes },
          size: bytes.length,
          sha256: sha256(bytes),
          claims,
          owner: name,
        });
        return { placed, sha256: sha256(bytes) };
      }),
    );
    const outcomes = await Promise.all(placing);
    for (const { placed, sha256: reported } of outcomes) {
      expect(placed.status, placed.relativePath).toBe('written');
      expect(await sha256Of(join(destination, placed.relativePath)), placed.relativePath).toBe(reported);
    }
    const expected = names.flatMap((name) => [name, name.replace(/\.jpg$/, ' (2).jpg')]);
    expect(await listFiles(destination)).toEqual(expected.sort());
  });

  it("removes what a killed writer left before writing, and keeps a live export's .part", async () => {
    const destination = join(root, 'sweep');
    const source = (await makeSources(join(root, 'sources'))).aiShot;
    const plan = await planExport({
      items: [exportItem({ key: 'cap-1', file: source })],
      recipes: [builtInRecipe('web')],
      date: '2026-11-29',
    });
    const path = plan.files[0]!.relativePath;
    // Another export's writer, alive (a process that sleeps while the run goes on), one left by a process
    // that has ended, and one of a live pid untouched for two hours (the pid since taken by another program).
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
    try {
      const live = newPartPath(destination, path, other.pid!);
      const killed = newPartPath(destination, path, gonePid());
      const forgotten = newPartPath(destination, path, other.pid!);
      await mkdir(dirname(live), { recursive: true });
      for (const part of [live, killed, forgotten]) await writeFile(part, 'half a file');
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
      await utimes(forgotten, twoHoursAgo, twoHoursAgo);
      const report = await runExport({ plan, destination });
      expect(report).toMatchObject({ status: 'done', written: 1, failed: 0 });
      const left = await readdir(dirname(live));
      expect(left.filter((name) => name.endsWith('.part'))).toEqual([live.slice(dirname(live).length + 1)]);
      expect(await sha256Of(join(destination, path))).toBe(report.files[0]!.sha256);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
