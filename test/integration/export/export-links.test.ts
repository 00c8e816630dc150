import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartPath } from '../../../src-main/core/export/export-parts.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';
import { gonePid } from '../../support/gone-pid.ts';

// An export never writes through a symbolic link out of its folder (issue 30), on real links: a folder of
// the plan that is a link out is refused before anything is made through it, and a link planted under a
// stale `.part`'s name is removed as a link, not followed (a writer's own `.part` is named at random, made
// new: export-parts.ts).

let root: string;
let outside: string;
let source: string;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-export-links-')));
  outside = join(root, 'outside');
  await mkdir(outside);
  source = (await makeSources(join(root, 'sources'))).aiShot;
}, 60_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const plan = () =>
  planExport({
    items: [exportItem({ key: 'cap-1', file: source })],
    recipes: [builtInRecipe('web')],
    date: '2026-11-27',
  });

describe('an export and links', () => {
  it('refuses a folder of its plan that is a link out, making nothing outside', async () => {
    const destination = join(root, 'linked-folder');
    const planned = await plan();
    const folder = dirname(planned.files[0]!.relativePath);
    await mkdir(dirname(join(destination, folder)), { recursive: true });
    await symlink(outside, join(destination, folder));
    const report = await runExport({ plan: planned, destination }).catch((error: Error) => error);
    const said =
      report instanceof Error ? report.message : `${report.message} ${JSON.stringify(report.files)}`;
    expect(said).toContain(`${folder} leads out of ${destination} through a link (to ${outside})`);
    expect(await readdir(outside)).toEqual([]);
  });

  it("removes a link planted under a stale .part's name without following it, then places the file", async () => {
    const destination = join(root, 'planted-part');
    const planned = await plan();
    const path = planned.files[0]!.relativePath;
    // Under a killed writer's name and under the name of a .part before writers were named: a run removes
    // both as what a killed run left, before it writes.
    const hash = createHash('sha256').update(path).digest('hex').slice(0, 16);
    const parts = [
      newPartPath(destination, path, gonePid()),
      join(destination, dirname(path), `.${hash}.part`),
    ];
    await mkdir(dirname(parts[0]!), { recursive: true });
    const bait = join(outside, 'bait.txt');
    await writeFile(bait, 'keep');
    for (const part of parts) await symlink(bait, part);
    const report = await runExport({ plan: planned, destination });
    expect(report).toMatchObject({ status: 'done', written: 1, failed: 0 });
    expect(await readFile(bait, 'utf8')).toBe('keep');
    expect(await readdir(dirname(join(destination, path)))).toEqual([basename(path)]);
    expect((await lstat(join(destination, path))).isSymbolicLink()).toBe(false);
  });
});
