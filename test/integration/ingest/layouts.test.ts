import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanInputs } from '../../../src-main/core/ingest/scan.ts';
import { jpeg } from '../../support/bad-inputs.ts';

// How what a designer drops becomes products: nested folders, flat folders of SKU-named files, loose files,
// several folders at once, a folder of 10,000 files, and a file that cannot be read.

const BIN = resolve(__dirname, '../../../bin/adbatch.mjs');
let dir: string;
let cache: string;
const photos: Buffer[] = [];

async function put(path: string, content: Buffer) {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

const names = (list: Array<{ file: string }>) => list.map((photo) => basename(photo.file));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-layouts-'));
  cache = join(dir, 'cache');
  for (let seed = 0; seed < 6; seed++) photos.push(await jpeg(600, 600, seed));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('scanInputs: layouts', () => {
  it('makes a folder of photos inside another its own product, or part of the one above, and says which', async () => {
    const shirt = join(dir, 'subfolders', 'linen-shirt');
    await put(join(shirt, 'front.jpg'), photos[0]!);
    await put(join(shirt, 'back.jpg'), photos[1]!);
    await put(join(shirt, 'detail', 'collar.jpg'), photos[2]!);
    await put(join(shirt, 'detail', 'close', 'button.jpg'), photos[3]!);
    const own = await scanInputs([join(dir, 'subfolders')], { cacheDir: cache });
    expect(own.products.map((p) => [p.name, p.path, names(p.photos)]).sort()).toEqual([
      ['close', join('linen-shirt', 'detail', 'close'), ['button.jpg']],
      ['detail', join('linen-shirt', 'detail'), ['collar.jpg']],
      ['linen-shirt', 'linen-shirt', ['back.jpg', 'front.jpg']],
    ]);
    expect(own.nested).toEqual([
      { folder: join('linen-shirt', 'detail'), parent: 'linen-shirt', merged: false },
      {
        folder: join('linen-shirt', 'detail', 'close'),
        parent: join('linen-shirt', 'detail'),
        merged: false,
      },
    ]);
    const merged = await scanInputs([join(dir, 'subfolders')], { cacheDir: cache, subfolders: 'parent' });
    expect(merged.products.map((p) => [p.name, names(p.photos)])).toEqual([
      ['linen-shirt', ['back.jpg', 'button.jpg', 'collar.jpg', 'front.jpg']],
    ]);
    expect(merged.nested.map((one) => [one.folder, one.merged])).toEqual([
      [join('linen-shirt', 'detail'), true],
      [join('linen-shirt', 'detail', 'close'), true],
    ]);
  });

  it('lists a folder whose every photo was turned away as a dropped product, with the reasons', async () => {
    const root = join(dir, 'dropped');
    await put(join(root, 'good', 'a.jpg'), photos[0]!);
    await put(join(root, 'broken', 'a.jpg'), Buffer.from('not a photo at all'));
    await put(join(root, 'broken', 'b.png'), Buffer.from('nor this'));
    const plan = await scanInputs([root], { cacheDir: cache });
    expect(plan.products.map((p) => p.name)).toEqual(['good']);
    expect(plan.dropped).toHaveLength(1);
    expect(plan.dropped[0]!.name).toBe('broken');
    expect(plan.dropped[0]!.folder).toBe('broken');
    expect(plan.dropped[0]!.reasons.length).toBeGreaterThan(0);
    // Each reason is the one its file's problem gives.
    const fileReasons = plan.problems
      .filter((problem) => problem.file.includes('broken'))
      .map((p) => p.reason);
    expect(new Set(plan.dropped[0]!.reasons)).toEqual(new Set(fileReasons));
  });

  it('splits a flat folder of loose files into products by SKU', async () => {
    const flat = join(dir, 'flat');
    await put(join(flat, 'SKU123_1.jpg'), photos[0]!);
    await put(join(flat, 'SKU123-2.png'), photos[1]!);
    await put(join(flat, 'SKU456_1.jpg'), photos[2]!);
    await put(join(flat, 'SKU456_10.jpg'), photos[3]!);
    await put(join(flat, 'SKU456_2.jpg'), photos[4]!);
    await put(join(flat, 'lone.jpg'), photos[5]!);
    const plan = await scanInputs([flat], { cacheDir: cache });
    expect(plan.products.map((p) => [p.name, p.path, names(p.photos)])).toEqual([
      ['lone', 'lone', ['lone.jpg']],
      ['SKU123', 'SKU123', ['SKU123_1.jpg', 'SKU123-2.png']],
      ['SKU456', 'SKU456', ['SKU456_1.jpg', 'SKU456_2.jpg', 'SKU456_10.jpg']],
    ]);
    expect(plan.problems).toEqual([]);
  });

  it('groups by the pattern the user gives', async () => {
    const flat = join(dir, 'by-pattern');
    await put(join(flat, 'tee.front.jpg'), photos[0]!);
    await put(join(flat, 'tee.back.jpg'), photos[1]!);
    await put(join(flat, 'cap.front.jpg'), photos[2]!);
    const plan = await scanInputs([flat], { cacheDir: cache, pattern: '^(?<sku>\\w+)\\.(front|back)$' });
    expect(plan.products.map((p) => [p.name, names(p.photos)])).toEqual([
      ['cap', ['cap.front.jpg']],
      ['tee', ['tee.back.jpg', 'tee.front.jpg']],
    ]);
  });

  it('keeps each product path relative to its dropped folder, and names unique across folders', async () => {
    const spring = join(dir, 'spring');
    const autumn = join(dir, 'autumn');
    await put(join(spring, 'hats', 'cap', '1.jpg'), photos[0]!);
    await put(join(spring, 'bags', 'tote', '1.jpg'), photos[1]!);
    await put(join(autumn, 'cap', '1.jpg'), photos[2]!);
    const plan = await scanInputs([spring, autumn], { cacheDir: cache });
    expect(plan.products.map((p) => [p.name, p.path, p.sourceDir])).toEqual([
      ['tote', join('bags', 'tote'), join(spring, 'bags', 'tote')],
      ['cap', join('hats', 'cap'), join(spring, 'hats', 'cap')],
      ['cap (2)', 'cap', join(autumn, 'cap')],
    ]);
  });

  it('takes loose files given one by one, grouped by SKU, and a dropped product folder itself', async () => {
    const loose = join(dir, 'loose');
    await put(join(loose, 'MUG7_1.jpg'), photos[0]!);
    await put(join(loose, 'MUG7_2.jpg'), photos[1]!);
    await put(join(loose, 'BAG2_1.jpg'), photos[2]!);
    const product = join(dir, 'just-a-product');
    await put(join(product, 'front.jpg'), photos[3]!);
    const plan = await scanInputs(
      [join(loose, 'MUG7_2.jpg'), join(loose, 'MUG7_1.jpg'), join(loose, 'BAG2_1.jpg'), product],
      { cacheDir: cache },
    );
    expect(plan.products.map((p) => [p.name, p.path, names(p.photos)])).toEqual([
      ['just-a-product', 'just-a-product', ['front.jpg']],
      ['BAG2', 'BAG2', ['BAG2_1.jpg']],
      ['MUG7', 'MUG7', ['MUG7_1.jpg', 'MUG7_2.jpg']],
    ]);
  });

  it('reports an input that does not exist and still scans the rest', async () => {
    const product = join(dir, 'still-here');
    await put(join(product, '1.jpg'), photos[0]!);
    const plan = await scanInputs([join(dir, 'nope'), product], { cacheDir: cache });
    expect(plan.products.map((p) => p.name)).toEqual(['still-here']);
    expect(plan.problems).toEqual([
      { file: join(dir, 'nope'), reason: 'no such file or folder', severity: 'error', code: 'missing_input' },
    ]);
  });

  it('handles a folder of 10,000 files: 2,500 SKUs of 4 photos', async () => {
    const big = join(dir, 'ten-thousand');
    await mkdir(big);
    for (let sku = 0; sku < 2500; sku++) {
      for (let n = 1; n <= 4; n++) await writeFile(join(big, `SKU${sku}_${n}.jpg`), photos[n]!);
    }
    const started = performance.now();
    const plan = await scanInputs([big], { cacheDir: cache });
    console.info(`10,000 files scanned in ${Math.round(performance.now() - started)} ms`);
    expect(plan.products).toHaveLength(2500);
    expect(plan.problems).toEqual([]);
    expect(plan.products.every((p) => p.photos.length === 4)).toBe(true);
    expect(names(plan.products.find((p) => p.name === 'SKU1234')!.photos)).toEqual([
      'SKU1234_1.jpg',
      'SKU1234_2.jpg',
      'SKU1234_3.jpg',
      'SKU1234_4.jpg',
    ]);
  }, 120_000);
});

describe('a file that cannot be read', () => {
  const isRoot = process.getuid?.() === 0;
  const asNobody = {
    uid: 65534,
    gid: 65534,
    cwd: tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, HOME: tmpdir() },
  } as const;

  /** Why `nobody` cannot run the CLI from this checkout (a home folder it cannot enter, say), or null. */
  function whyNobodyCannotRun(): string | null {
    const probe = spawnSync(process.execPath, [BIN, 'scan', '--help'], asNobody);
    if (probe.status === 0) return null;
    const lines = (probe.stderr ?? '').split('\n').filter((line) => line.trim());
    const said = probe.error?.message ?? lines.find((line) => /error|denied/i.test(line)) ?? lines[0];
    return `nobody cannot run ${process.execPath} ${BIN}: ${said ?? `exit status ${probe.status}`}`;
  }

  it('is turned away as unreadable (permission denied), the rest of its folder kept', async ({ skip }) => {
    const product = join(dir, 'locked');
    await put(join(product, '1.jpg'), photos[0]!);
    await put(join(product, '2.jpg'), photos[1]!);
    await chmod(join(product, '2.jpg'), 0o000);
    if (!isRoot) {
      const plan = await scanInputs([product], { cacheDir: cache });
      expect(names(plan.products[0]!.photos)).toEqual(['1.jpg']);
      expect(plan.problems).toMatchObject([{ code: 'unreadable', reason: 'unreadable: permission denied' }]);
      return;
    }
    // Root reads anything: the scan runs as `nobody`, through the CLI, as a user without the right would.
    const cannot = whyNobodyCannotRun();
    if (cannot) {
      console.warn(`cannot run here: ${cannot}`);
      skip(`cannot run here: ${cannot}`);
    }
    await chmod(dir, 0o755);
    const library = join(dir, 'nobody-library');
    await mkdir(library, { mode: 0o777 });
    await chmod(library, 0o777);
    const run = spawnSync(process.execPath, [BIN, 'scan', '--json', '--library', library, product], asNobody);
    expect(run.status, run.error?.message ?? run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan.products[0].photos.map((p: { file: string }) => basename(p.file))).toEqual(['1.jpg']);
    expect(plan.problems).toEqual([
      {
        file: join(product, '2.jpg'),
        reason: 'unreadable: permission denied',
        severity: 'error',
        code: 'unreadable',
      },
    ]);
  });
});
