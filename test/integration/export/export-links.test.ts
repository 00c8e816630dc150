import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partPath, placeFile } from '../../../src-main/core/export/place-file.ts';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { NameClaims } from '../../../src-main/core/util/safe-names.ts';
import { exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';

// An export never writes through a symbolic link out of its folder (issue 30), on real links: a folder of
// the plan that is a link out is refused before anything is made through it, and a link planted under a
// file's `.part` name is not followed (placing the file by itself: a run clears stale parts first).

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

  it("places a file without following a link planted under its .part's name", async () => {
    const destination = join(root, 'planted-part');
    const path = 'Web/cap.txt';
    const part = partPath(destination, path);
    await mkdir(dirname(part), { recursive: true });
    const bait = join(outside, 'bait.txt');
    await writeFile(bait, 'keep');
    await symlink(bait, part);
    const bytes = Buffer.from('the exported file');
    const placed = await placeFile({
      root: destination,
      plannedPath: path,
      content: { bytes },
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      claims: new NameClaims(),
      owner: 'cap-1',
    });
    expect(placed).toEqual({ relativePath: path, status: 'written' });
    expect(await readFile(bait, 'utf8')).toBe('keep');
    expect(await readFile(join(destination, path), 'utf8')).toBe('the exported file');
    expect((await lstat(join(destination, path))).isSymbolicLink()).toBe(false);
  });
});
