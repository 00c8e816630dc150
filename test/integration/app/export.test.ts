import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../../src-main/core/create-core.ts';
import type { ExportDetail, ExportProgressView, ExportRequest } from '../../../src-main/shared/models.ts';
import { startChild } from '../../support/child-process.ts';
import { ADBATCH_BIN, adbatch } from '../../support/cli.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  refusalOf,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from '../../support/core-harness.ts';
import { fileStamps, listFiles, sha256Of } from '../../support/export-checks.ts';
import { ACCEPT_ALL } from '../../support/export-item.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { canMount } from '../../support/small-disk.ts';
import { type StaticServer, startStaticServer, writeCatalog } from '../../support/static-server.ts';
import { untilValue } from '../../support/until.ts';

// Issue 13 through the handler map and the CLI, on a real sandbox batch: recipes, the plan and its names,
// an export in the worker into a temp folder (every file decoded, every manifest row's sha256 checked, every
// zip through `unzip -t`), a second run that writes nothing, a selection from Review, an export cancelled
// by `export:cancel`, one a kill interrupted finished by `export:resume`, and the CLI killed with SIGKILL
// mid-export then run again: exactly the planned files, none half-written.

let h: CoreHarness;
let photos: StaticServer;
let batchId: string;
let out: string;

function untilEnded(core: Core, id: string): Promise<ExportDetail> {
  return untilValue(async () => {
    const detail = await callCore(core, 'export:get', { id });
    return detail.state === 'running' ? null : detail;
  });
}

function unzipTest(zip: string): string {
  return execFileSync('unzip', ['-t', zip], { encoding: 'utf8' });
}

function zipEntries(zip: string): string[] {
  return execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
}

beforeAll(async () => {
  h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  photos = await startStaticServer();
  // Shot on the embedded sandbox: an export reads the library and the database, never the service.
  batchId = await finishedBatch(h.core, {
    inputs: [await writeCatalog(join(h.dir, 'export.csv'), photos, ['hat', 'tote', 'mug'])],
    shoot: { ...QUICK_SHOOT, shots: 4 },
    name: 'Export',
  });
  const items = (await callCore(h.core, 'review:get', { batchId })).items;
  const of = (product: string) => items.filter((item) => item.productName === product);
  const [hat1, hat2, hat3] = of('Hat');
  const [tote1, tote2] = of('Tote');
  await pickResults(h.core, batchId, [hat1!.id, hat2!.id, hat3!.id, tote1!.id]);
  await callCore(h.core, 'review:decide', { batchId, resultIds: [hat1!.id], change: { stars: 5 } });
  await callCore(h.core, 'review:decide', { batchId, resultIds: [tote2!.id], change: { stars: 4 } });
  out = join(h.dir, 'exports');
}, 120_000);

afterAll(async () => {
  await photos?.close();
  await h?.close();
});

const request = (overrides: Partial<ExportRequest> = {}): ExportRequest => ({
  scope: { batchIds: [batchId] },
  recipes: ['shopify', 'Amazon main', 'amazon-additional'],
  destination: join(out, 'run'),
  zip: 'per-product',
  acceptWarnings: ACCEPT_ALL,
  ...overrides,
});

describe('export recipes through the map', () => {
  it('lists the built-ins and the designer’s own, saves and deletes one, refuses a built-in’s id', async () => {
    const before = await callCore(h.core, 'export:recipes');
    expect(before.recipes.map((recipe) => [recipe.id, recipe.builtIn])).toEqual([
      ['original', true],
      ['shopify', true],
      ['amazon-main', true],
      ['amazon-additional', true],
      ['instagram-feed', true],
      ['story-reels', true],
      ['amazon-video', true],
      ['web', true],
    ]);
    const saved = await callCore(h.core, 'export:saveRecipe', {
      id: 'thumbs',
      name: 'Thumbs',
      format: { type: 'png' },
      size: { kind: 'long-edge', px: 256 },
      fileTemplate: '{handle}-{n:03}',
    });
    expect(saved).toMatchObject({ folderTemplate: '{recipe}', kinds: ['shot', 'source'] });
    expect((await callCore(h.core, 'export:recipes')).recipes.at(-1)).toMatchObject({
      id: 'thumbs',
      builtIn: false,
    });
    expect(
      await refusalOf(h.core, 'export:saveRecipe', { ...saved, id: 'web', name: 'My web' }),
    ).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/built-in/) });
    await callCore(h.core, 'export:deleteRecipe', { id: 'thumbs' });
    expect(await refusalOf(h.core, 'export:deleteRecipe', { id: 'thumbs' })).toMatchObject({
      code: 'not_found',
    });
  });
});

describe('an export planned', () => {
  it('names the picked results only, per recipe, with the catalog’s SKU, before anything is written', async () => {
    const plan = await callCore(h.core, 'export:plan', request());
    // Hat: 3 picks (Shopify 3, Amazon main 1, additional 2); Tote: 1 pick (Shopify 1, main 1).
    expect(plan.total).toBe(8);
    expect(plan.files.map((file) => file.path)).toEqual([
      'Shopify/hat-01.jpg',
      'Shopify/hat-02.jpg',
      'Shopify/hat-03.jpg',
      'Shopify/tote-01.jpg',
      'Amazon main/Hat.MAIN.jpg',
      'Amazon main/Tote.MAIN.jpg',
      'Amazon additional/Hat.PT01.jpg',
      'Amazon additional/Hat.PT02.jpg',
    ]);
    expect(plan.files.every((file) => !file.exists)).toBe(true);
    expect(plan.collisions).toBe(0);
    expect(plan.zips).toEqual(['Hat.zip', 'Tote.zip']);
    expect(await listFiles(out).catch(() => [])).toEqual([]);
  });

  it('takes picks or N stars, and not-rejected, as asked', async () => {
    const stars = await callCore(
      h.core,
      'export:plan',
      request({ recipes: ['web'], selection: { rule: 'picked-or-stars', minStars: 4 } }),
    );
    expect(stars.files.map((file) => file.path)).toEqual([
      'Web/Hat-classic-01.webp',
      'Web/Hat-classic-02.webp',
      'Web/Hat-classic-03.webp',
      'Web/Tote-classic-01.webp',
      'Web/Tote-classic-02.webp',
    ]);
    const kept = await callCore(
      h.core,
      'export:plan',
      request({ recipes: ['web'], selection: { rule: 'not-rejected' } }),
    );
    expect(kept.total).toBe(12);
  });

  it('refuses an unknown recipe, a bad template and a relative folder, saying which', async () => {
    expect(await refusalOf(h.core, 'export:plan', request({ recipes: ['Shopfy'] }))).toEqual({
      code: 'bad_request',
      message: expect.stringMatching(/^There is no recipe "Shopfy": the recipes are Original, Shopify,/),
    });
    expect(await refusalOf(h.core, 'export:plan', request({ fileTemplate: '{prodcut}.{ext}' }))).toEqual({
      code: 'bad_request',
      message: expect.stringContaining('unknown token {prodcut}'),
    });
    expect(await refusalOf(h.core, 'export:plan', request({ destination: 'relative/dir' }))).toMatchObject({
      code: 'bad_request',
    });
  });
});

describe.runIf(canMount)('an export into a folder to be made on a read-only disk', () => {
  it('is refused with the disk’s reason, not as a folder gone', async () => {
    const mount = join(h.dir, 'read-only');
    await mkdir(mount, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', mount]);
    try {
      const destination = join(mount, 'exports', 'today');
      expect(await refusalOf(h.core, 'export:start', request({ destination }))).toEqual({
        code: 'conflict',
        message: `The export folder (${destination}) is on a read-only disk: choose another folder.`,
      });
    } finally {
      execFileSync('umount', ['-l', mount]);
    }
  });
});

describe('a focus point set in Review', () => {
  it('is kept per result and centres the export’s crops on it', async () => {
    const items = (await callCore(h.core, 'review:get', { batchId })).items;
    const tote2 = items.filter((item) => item.productName === 'Tote')[1]!;
    const cropWith = async (focus: { x: number; y: number } | null, name: string) => {
      expect(await callCore(h.core, 'review:setFocus', { batchId, resultId: tote2.id, focus })).toEqual({
        resultId: tote2.id,
        focus,
      });
      // Review's view carries it, as the loupe shows it.
      const shown = (await callCore(h.core, 'review:get', { batchId })).items.find(
        (item) => item.id === tote2.id,
      );
      expect(shown?.focus).toEqual(focus);
      const started = await callCore(h.core, 'export:start', {
        scope: { batchIds: [batchId], resultIds: [tote2.id] },
        recipes: ['instagram-feed'],
        selection: { rule: 'not-rejected' },
        destination: join(out, name),
        acceptWarnings: ACCEPT_ALL,
      });
      const ended = await untilEnded(h.core, started.id);
      expect(ended).toMatchObject({ state: 'done', written: 1 });
      return ended.files[0]!.sha256;
    };
    // The 1024 px square result cut to 4:5 at its left edge, then at its right edge: two crops.
    const left = await cropWith({ x: 0, y: 0.5 }, 'focus-left');
    const right = await cropWith({ x: 1, y: 0.5 }, 'focus-right');
    expect(left).not.toBe(right);
    // Cleared: the crop finds the subject itself again.
    await cropWith(null, 'focus-none');
    expect(
      await refusalOf(h.core, 'review:setFocus', { batchId, resultId: 999_999, focus: { x: 0.5, y: 0.5 } }),
    ).toMatchObject({ code: 'not_found' });
  }, 120_000);
});

describe('an export run through the map', () => {
  let detail: ExportDetail;
  const events: ExportProgressView[] = [];

  beforeAll(async () => {
    const off = h.core.events.on('export:progress', (progress) => events.push(progress));
    const started = await callCore(h.core, 'export:start', request());
    expect(started.resumed).toBe(false);
    detail = await untilEnded(h.core, started.id);
    off();
  }, 120_000);

  it('writes every planned file, decoded at its recipe’s size, with a manifest whose sha256 match', async () => {
    const dir = join(out, 'run');
    expect(detail).toMatchObject({ state: 'done', written: 8, identical: 0, failed: 0 });
    // With the Shopify recipe, Shopify's import file beside the manifests (export-sheets.test.ts).
    expect(detail.manifests).toEqual(['manifest.csv', 'manifest.json', 'shopify-import.csv']);
    expect(await listFiles(dir)).toEqual(
      [
        ...detail.files.map((file) => file.path),
        // The folder the export made: marked as Adbatch's, never scanned for products (core/folder-marks.ts).
        '.adbatch-export',
        'manifest.csv',
        'manifest.json',
        'shopify-import.csv',
        'Hat.zip',
        'Tote.zip',
      ].sort(),
    );
    for (const file of detail.files) {
      const metadata = await sharp(join(dir, file.path)).metadata();
      expect(metadata.format, file.path).toBe('jpeg');
      expect(metadata.space, file.path).toBe('srgb');
      // The sandbox's 1024 px results, not enlarged: Shopify's square at the result's own pixels.
      if (file.recipe === 'Shopify') expect([metadata.width, metadata.height]).toEqual([1024, 1024]);
      else expect(Math.max(metadata.width, metadata.height), file.path).toBeLessThanOrEqual(2000);
    }
    const rows = parse(await readFile(join(dir, 'manifest.csv')), { columns: true }) as Array<
      Record<string, string>
    >;
    const json = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as {
      files: Array<{ path: string; sha256: string; sku: string; stars: number }>;
    };
    expect(rows).toHaveLength(8);
    expect(json.files.map((row) => row.path)).toEqual(rows.map((row) => row.path));
    for (const row of rows) expect(await sha256Of(join(dir, row.path!)), row.path).toBe(row.sha256);
    expect(json.files.find((row) => row.path === 'Shopify/hat-01.jpg')).toMatchObject({
      sku: 'Hat',
      stars: 5,
    });
  });

  it('zips each product’s files, and every zip passes unzip -t', async () => {
    const dir = join(out, 'run');
    expect(detail.zips).toEqual(['Hat.zip', 'Tote.zip']);
    for (const zip of detail.zips) expect(unzipTest(join(dir, zip))).toMatch(/No errors detected/);
    expect(zipEntries(join(dir, 'Tote.zip'))).toEqual(['Amazon main/Tote.MAIN.jpg', 'Shopify/tote-01.jpg']);
    expect(zipEntries(join(dir, 'Hat.zip'))).toHaveLength(6);
  });

  it('said its progress in events, the last one the whole', () => {
    const files = events.filter((event) => event.id === detail.id && event.phase === 'files');
    expect(files.length).toBeGreaterThan(0);
    expect(files.at(-1)).toMatchObject({ done: 8, total: 8, written: 8 });
    expect(events.filter((event) => event.phase === 'zips').at(-1)).toMatchObject({ done: 2, total: 2 });
  });

  it('is listed with its state, destination and manifests', async () => {
    const listed = (await callCore(h.core, 'export:list')).find((one) => one.id === detail.id);
    expect(listed).toMatchObject({
      state: 'done',
      destination: join(out, 'run'),
      manifests: ['manifest.csv', 'manifest.json', 'shopify-import.csv'],
      recipes: ['Shopify', 'Amazon main', 'Amazon additional'],
      resumable: false,
    });
  });

  it('writes nothing when run again into the same folder', async () => {
    const dir = join(out, 'run');
    const stamps = await fileStamps(dir);
    const plan = await callCore(h.core, 'export:plan', request());
    expect(plan.collisions).toBe(8);
    const again = await untilEnded(h.core, (await callCore(h.core, 'export:start', request())).id);
    expect(again).toMatchObject({ state: 'done', written: 0, identical: 8, zips: ['Hat.zip', 'Tote.zip'] });
    expect(await fileStamps(dir)).toEqual(stamps);
  }, 120_000);

  it('is one export when started twice at once (a second click, an agent’s retry), not two runs', async () => {
    const twice = request({ destination: join(out, 'twice') });
    const [first, second] = await Promise.all([
      callCore(h.core, 'export:start', twice),
      callCore(h.core, 'export:start', twice),
    ]);
    expect(second.id).toBe(first.id);
    expect(await untilEnded(h.core, first.id)).toMatchObject({ state: 'done', written: 8, identical: 0 });
    const listed = (await callCore(h.core, 'export:list')).filter(
      (one) => one.destination === twice.destination,
    );
    expect(listed.map((one) => one.id)).toEqual([first.id]);
    // Once it has ended, the same export asked again is a new run (it finds its files there).
    const again = await callCore(h.core, 'export:start', twice);
    expect(again.id).not.toBe(first.id);
    expect(await untilEnded(h.core, again.id)).toMatchObject({ state: 'done', written: 0, identical: 8 });
  }, 120_000);

  it('exports a selection from Review, and zips per recipe', async () => {
    const items = (await callCore(h.core, 'review:get', { batchId })).items;
    const tote2 = items.filter((item) => item.productName === 'Tote')[1]!;
    const selection = request({
      scope: { batchIds: [batchId], resultIds: [tote2.id] },
      recipes: ['instagram-feed'],
      selection: { rule: 'not-rejected' },
      destination: join(out, 'selection'),
      zip: 'per-recipe',
    });
    const ended = await untilEnded(h.core, (await callCore(h.core, 'export:start', selection)).id);
    expect(ended.files.map((file) => file.path)).toEqual(['Instagram feed/Tote-classic-01-feed.jpg']);
    const metadata = await sharp(join(out, 'selection', ended.files[0]!.path)).metadata();
    // 4:5 cut from the 1024 px square result at its own pixels, nothing enlarged.
    expect([metadata.width, metadata.height]).toEqual([819, 1024]);
    expect(ended.zips).toEqual(['Instagram feed.zip']);
    expect(unzipTest(join(out, 'selection', 'Instagram feed.zip'))).toMatch(/No errors detected/);
  }, 120_000);
});

describe('an export stopped and resumed through the map', () => {
  const everything = (destination: string) =>
    request({
      recipes: ['shopify', 'web', 'instagram-feed'],
      selection: { rule: 'not-rejected' },
      destination,
      zip: null,
    });

  it('cancelled by export:cancel, keeps what it finished, leaves no partial file, and is not offered again', async () => {
    const dir = join(out, 'cancelled');
    const seen: ExportProgressView[] = [];
    const off = h.core.events.on('export:progress', (progress) => seen.push(progress));
    const started = await callCore(h.core, 'export:start', everything(dir));
    await expect
      .poll(() => seen.some((one) => one.id === started.id && one.done >= 1), { timeout: 90_000 })
      .toBe(true);
    const cancelled = await callCore(h.core, 'export:cancel', { id: started.id });
    off();
    expect(cancelled).toMatchObject({ id: started.id, state: 'cancelled', resumable: false });
    const detail = await callCore(h.core, 'export:get', { id: started.id });
    expect(detail.written).toBeGreaterThanOrEqual(1);
    expect(detail.written).toBeLessThan(36);
    expect(detail.manifests).toEqual([]);
    const files = await listFiles(dir);
    expect(files.filter((path) => path.includes('.part'))).toEqual([]);
    expect(files).toEqual([...detail.files.map((file) => file.path), '.adbatch-export'].sort());
    for (const file of detail.files)
      expect(await sha256Of(join(dir, file.path)), file.path).toBe(file.sha256);
    // Cancelled is the designer's choice: not offered again, and export:resume refuses it.
    expect(await refusalOf(h.core, 'export:resume', { id: started.id })).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('only an interrupted export is resumed'),
    });
    // A second cancel of an ended export answers its state.
    expect(await callCore(h.core, 'export:cancel', { id: started.id })).toMatchObject({ state: 'cancelled' });
  }, 120_000);

  it('interrupted by a kill, is offered again and finished by export:resume under the same names', async () => {
    const dir = join(out, 'resumed');
    const cli = startChild([
      ADBATCH_BIN,
      'export',
      batchId,
      '--to',
      dir,
      '--recipe',
      'shopify',
      '--recipe',
      'web',
      '--recipe',
      'instagram-feed',
      '--not-rejected',
      '--accept-warning',
      ACCEPT_ALL.join(','),
      '--data-dir',
      join(h.dir, 'data'),
    ]);
    await cli.waitFor(/^file [1-9]\d*\/36 /m);
    await cli.kill();
    // The files exported so far: not a half-written one, nor the folder's mark.
    const finishedBefore = (await listFiles(dir)).filter(
      (path) => !path.includes('.part') && path !== '.adbatch-export',
    );
    expect(finishedBefore.length).toBeLessThan(36);

    const offered = (await callCore(h.core, 'export:list')).filter((one) => one.destination === dir);
    expect(offered).toHaveLength(1);
    expect(offered[0]).toMatchObject({ state: 'interrupted', resumable: true });
    const id = offered[0]!.id;
    const resumed = await callCore(h.core, 'export:resume', { id });
    expect(resumed).toMatchObject({ id, state: 'running', resumable: false });
    const detail = await untilEnded(h.core, id);
    expect(detail).toMatchObject({ state: 'done', failed: 0, resumable: false });
    expect(detail.written + detail.identical).toBe(36);
    expect(detail.identical).toBeGreaterThanOrEqual(finishedBefore.length);
    const files = await listFiles(dir);
    expect(files.filter((path) => path.includes('.part'))).toEqual([]);
    expect(files).toEqual(
      [
        ...detail.files.map((file) => file.path),
        '.adbatch-export',
        'manifest.csv',
        'manifest.json',
        'shopify-import.csv',
      ].sort(),
    );
    expect(files).toEqual(expect.arrayContaining(finishedBefore));
    for (const file of detail.files)
      expect(await sha256Of(join(dir, file.path)), file.path).toBe(file.sha256);
    // Still one export for that folder: the same one, resumed, not a new one.
    expect((await callCore(h.core, 'export:list')).filter((one) => one.destination === dir)).toHaveLength(1);
    expect(await refusalOf(h.core, 'export:resume', { id })).toMatchObject({ code: 'conflict' });
  }, 240_000);
});

describe('adbatch export', () => {
  const cliArgs = (to: string, extra: string[] = []) => [
    ADBATCH_BIN,
    'export',
    batchId,
    '--to',
    to,
    '--recipe',
    'shopify',
    '--recipe',
    'web',
    '--recipe',
    'story-reels',
    '--not-rejected',
    '--zip',
    'per-recipe',
    '--accept-warning',
    ACCEPT_ALL.join(','),
    '--data-dir',
    join(h.dir, 'data'),
    ...extra,
  ];

  it('prints the planned names on a dry run and writes nothing', async () => {
    const to = join(out, 'cli-dry');
    const child = startChild(cliArgs(to, ['--dry-run']));
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain(`36 files into ${to}:`);
    expect(child.output()).toContain('Shopify/hat-01.jpg  1024x1024');
    expect(child.output()).toContain('… and 16 more');
    expect(child.output()).toContain('zip Shopify.zip');
    expect(await listFiles(to).catch(() => [])).toEqual([]);
  }, 60_000);

  it('refuses a bad template, an unknown recipe and a folder it cannot write, in one line, exit 1', async () => {
    const blocker = join(out, 'a-file');
    await mkdir(out, { recursive: true });
    await writeFile(blocker, 'not a folder');
    const cases: Array<[string[], RegExp]> = [
      [
        cliArgs(join(out, 'x'), ['--name', '{prodcut}']),
        /^adbatch: The template "\{prodcut\}" has an unknown token/,
      ],
      [[...cliArgs(join(out, 'x')), '--recipe', 'Etsy'], /^adbatch: There is no recipe "Etsy"/],
      // A file where a folder of the path must be: said as what it is, not as a folder that went away.
      [
        cliArgs(join(blocker, 'export')),
        /^adbatch: .*a-file\/export is not a folder: part of the path is a file\. Choose a folder instead\.$/m,
      ],
    ];
    for (const [args, message] of cases) {
      const child = startChild(args);
      expect(await child.exited).toBe(1);
      const lines = child.output().trim().split('\n');
      expect(lines, child.output()).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
  }, 60_000);

  it('asks for the batches or --all when given neither, and refuses both', async () => {
    const to = ['--to', join(out, 'cli-which'), '--data-dir', join(h.dir, 'data')];
    const neither = startChild([ADBATCH_BIN, 'export', ...to]);
    expect(await neither.exited).toBe(1);
    expect(neither.output().trim()).toBe(
      'adbatch: name the batches to export (their ids, as adbatch status lists them), or --all',
    );
    const both = startChild([ADBATCH_BIN, 'export', batchId, '--all', ...to]);
    expect(await both.exited).toBe(1);
    expect(both.output().trim()).toBe('adbatch: name the batches to export or --all, not both');
  }, 60_000);

  it('says why nothing would go out, on a dry run as on a run, and how to take more, exit 1', async () => {
    // A recipe of the designer's that takes videos only: the batch's picks are shots, so nothing is kept.
    await callCore(h.core, 'export:saveRecipe', {
      id: 'clips',
      name: 'Clips',
      format: { type: 'original' },
      size: { kind: 'original' },
      fileTemplate: '{product}-{n:02}',
      kinds: ['video'],
    });
    try {
      const to = join(out, 'cli-nothing');
      const args = [
        ADBATCH_BIN,
        'export',
        batchId,
        '--to',
        to,
        '--recipe',
        'clips',
        '--data-dir',
        join(h.dir, 'data'),
      ];
      for (const extra of [['--dry-run'], []]) {
        const child = startChild([...args, ...extra]);
        expect(await child.exited, child.output()).toBe(1);
        expect(child.output().trim()).toBe(
          'adbatch: nothing to export: no result of these batches is picked (of those the recipes take); pick some in Review or with adbatch pick <file...>, or take more with --not-rejected or --min-stars N',
        );
      }
      expect(await listFiles(to).catch(() => [])).toEqual([]);
    } finally {
      await callCore(h.core, 'export:deleteRecipe', { id: 'clips' });
    }
  }, 60_000);

  it('exports started from a folder outside the checkout: its worker is not looked for there', async () => {
    // As an installed `adbatch` starts anywhere: the worker once looked for tsx in the current folder.
    const to = join(out, 'cli-elsewhere');
    const args = ['export', batchId, '--to', to, '--recipe', 'web', '--data-dir', join(h.dir, 'data')];
    const result = await adbatch(args, { cwd: h.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^done: 4 written, 0 already there, 0 failed/m);
    expect(await listFiles(to)).toEqual(expect.arrayContaining(['manifest.csv', 'manifest.json']));
  }, 60_000);

  it('killed mid-export, then run again, ends with exactly the planned files and no .part', async () => {
    const to = join(out, 'cli-killed');
    const first = startChild(cliArgs(to));
    await first.waitFor(/^file [1-9]\d*\/36 /m);
    await first.kill();
    expect(first.output()).not.toMatch(/^done:/m);
    const before = await listFiles(to);
    expect(
      before.filter((path) => !path.endsWith('.part') && path !== '.adbatch-export').length,
    ).toBeLessThan(36);

    const second = startChild(cliArgs(to));
    expect(await second.exited, second.output()).toBe(0);
    expect(second.output()).toMatch(/^Resuming export /m);
    const exports = await callCore(h.core, 'export:list');
    const resumed = exports.find((one) => one.destination === to)!;
    expect(exports.filter((one) => one.destination === to)).toHaveLength(1);
    const detail = await callCore(h.core, 'export:get', { id: resumed.id });
    expect(detail).toMatchObject({ state: 'done', failed: 0 });
    expect(detail.written + detail.identical).toBe(36);
    expect(detail.identical).toBeGreaterThan(0);
    const files = await listFiles(to);
    expect(files.filter((path) => path.includes('.part'))).toEqual([]);
    expect(files).toEqual(
      [
        ...detail.files.map((file) => file.path),
        '.adbatch-export',
        'manifest.csv',
        'manifest.json',
        'shopify-import.csv',
        'Shopify.zip',
        'Web.zip',
        'Story and Reels.zip',
      ].sort(),
    );
    const json = JSON.parse(await readFile(join(to, 'manifest.json'), 'utf8')) as {
      files: Array<{ path: string; sha256: string }>;
    };
    expect(json.files).toHaveLength(36);
    for (const row of json.files) expect(await sha256Of(join(to, row.path)), row.path).toBe(row.sha256);
    for (const zip of detail.zips) expect(unzipTest(join(to, zip))).toMatch(/No errors detected/);

    // Run a third time: nothing written.
    const third = startChild(cliArgs(to));
    expect(await third.exited).toBe(0);
    expect(third.output()).toMatch(/^done: 0 written, 36 already there, 0 failed/m);
    expect(third.output()).toContain(
      `, into ${to}; manifest: ${join(to, 'manifest.csv')}, ${join(to, 'manifest.json')}, ${join(to, 'shopify-import.csv')}; zips: `,
    );
  }, 240_000);
});
