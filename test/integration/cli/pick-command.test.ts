import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewView } from '../../../src-main/shared/models.ts';
import { adbatch, runOnSandbox } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// `adbatch pick`, `reject` and `unflag` as a user runs them after looking at a batch's results in a viewer:
// files named by their paths (absolute, or relative to where the terminal is), flagged through the same
// handler as Review's keys, read back by `adbatch review --json`; a file that is not a result refuses the
// whole command in words and flags nothing.

let dir: string;
let where: { dataDir: string; library: string };
let batchId: string;
let folder: string;
/** Each product's shot files, relative to the results folder, in order. */
let shots: string[][];

const review = async (): Promise<ReviewView & { resultsFolder: string }> => {
  const printed = await cli(['review', batchId, '--json']);
  expect(printed.code, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout);
};
/** An adbatch command on this test's data folder. */
const cli = (args: string[], options: { cwd?: string } = {}) =>
  adbatch([...args, '--data-dir', where.dataDir], options);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const flags = async () =>
  Object.fromEntries((await review()).items.map((item) => [item.file, [item.flag, item.rejectReason]]));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-pick-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  await makeProductFolders(join(dir, 'photos'), 2);
  const run = await runOnSandbox([join(dir, 'photos')], where, ['--shots', '4']);
  expect(run.code, run.stderr).toBe(0);
  batchId = /Batch (b_[0-9a-f]+) started/.exec(run.stdout)![1]!;
  const view = await review();
  folder = view.resultsFolder;
  const products = [...new Set(view.items.map((item) => item.productName))];
  shots = products.map((name) =>
    view.items.filter((item) => item.productName === name && item.kind === 'shot').map((item) => item.file),
  );
  expect(shots.map((files) => files.length)).toEqual([4, 4]);
  const before = await cli(['review', batchId]);
  expect(before.stdout).toMatch(
    new RegExp(
      `: 0 of 8 reviewed, 0 picked, 0 rejected\\nNothing picked yet: pick in Review in the app, or with adbatch pick <file\\.\\.\\.> \\(the results are in ${escaped(folder)}\\)\\.\\n$`,
    ),
  );
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('adbatch pick, reject and unflag', () => {
  it('flag results named by their files, as Review does, and say where the review stands', async () => {
    const [first, second] = shots as [string[], string[]];
    const picked = await cli(['pick', join(folder, first[0]!), join(folder, second[1]!)]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toMatch(
      new RegExp(`^Picked 2 in .+ \\(${batchId}\\): .+\\. Now 2 of 8 reviewed, 2 picked, 0 rejected\\.\\n$`),
    );

    // From inside the results folder, as a shell's glob names them.
    const rejected = await cli(['reject', first[1]!, first[2]!, '--reason', 'garbled_text'], { cwd: folder });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stdout).toMatch(/Now 4 of 8 reviewed, 2 picked, 2 rejected\.\n$/);
    const plain = await cli(['reject', join(folder, first[3]!)]);
    expect(plain.code, plain.stderr).toBe(0);

    expect(await flags()).toMatchObject({
      [first[0]!]: ['picked', null],
      [first[1]!]: ['rejected', 'garbled_text'],
      [first[2]!]: ['rejected', 'garbled_text'],
      [first[3]!]: ['rejected', null],
      [second[0]!]: [null, null],
      [second[1]!]: ['picked', null],
    });

    const unflagged = await cli(['unflag', join(folder, second[1]!), join(folder, first[1]!)]);
    expect(unflagged.code, unflagged.stderr).toBe(0);
    // Neither picked nor rejected, and a rejection's reason goes with it.
    expect((await flags())[second[1]!]).toEqual([null, null]);
    expect((await flags())[first[1]!]).toEqual([null, null]);

    // Through a link to the results folder, as a path on macOS often goes (/tmp is /private/tmp).
    const link = join(dir, 'this batch');
    await symlink(folder, link);
    const throughLink = await cli(['pick', join(link, second[2]!)]);
    expect(throughLink.code, throughLink.stderr).toBe(0);
    expect((await flags())[second[2]!]).toEqual(['picked', null]);
  }, 60_000);

  it('refuses every file when one is not a result, and changes nothing', async () => {
    const before = await flags();
    const stranger = join(folder, 'notes.jpg');
    await writeFile(stranger, 'not a result');
    const outside = join(dir, 'photos', (await readdir(join(dir, 'photos')))[0]!);
    const refused = await cli(['pick', join(folder, shots[1]![0]!), stranger, outside]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^adbatch: nothing was changed: ${escaped(stranger)} is in .+'s folder but is not one of its results; ${escaped(outside)} is not in any batch's results folder\\. A result is a shot or video a batch saved\\.\\n$`,
      ),
    );
    expect(await flags()).toEqual(before);
  }, 60_000);
});
