import { copyFile, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg } from '../../support/bad-inputs.ts';
import { adbatch, runOnSandbox, sandboxRunArgs } from '../../support/cli.ts';
import { adbatchInProcess } from '../../support/cli-in-process.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// `adbatch scan` and the ingest under `adbatch run`, as a user runs them.

let dir: string;
let dropped: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-scan-'));
  dropped = join(dir, 'dropped');
  await makeProductFolders(dropped, 2, 2);
  await writeFile(join(dropped, 'product-01', 'broken.jpg'), 'not a photo');
  await writeFile(join(dropped, 'product-02', '.DS_Store'), 'junk');
  await mkdir(join(dropped, 'flat'));
  await writeFile(join(dropped, 'flat', 'MUG1_1.jpg'), await jpeg(600, 600, 1));
  await writeFile(join(dropped, 'flat', 'MUG1_2.jpg'), await jpeg(600, 600, 2));
  await writeFile(join(dropped, 'flat', 'CUP9_1.jpg'), await jpeg(600, 600, 3));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The data folder too: the user's own (in $HOME) may hold a database another Adbatch version wrote.
const folders = () => ['--library', join(dir, 'library'), '--data-dir', join(dir, 'data')];

describe('adbatch scan', () => {
  it('says what it made of a folder of photos inside a product, either way, and lists a dropped product', async () => {
    const root = join(dir, 'nested');
    await mkdir(join(root, 'linen-shirt', 'detail'), { recursive: true });
    await mkdir(join(root, 'broken'), { recursive: true });
    await writeFile(join(root, 'linen-shirt', 'front.jpg'), await jpeg(600, 600, 4));
    await writeFile(join(root, 'linen-shirt', 'detail', 'collar.jpg'), await jpeg(600, 600, 5));
    await writeFile(join(root, 'broken', 'front.jpg'), 'not a photo');
    const own = await adbatch(['scan', root, ...folders()]);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain(
      `Folders inside a product’s folder\n  ${join('linen-shirt', 'detail')}: a product of its own\n`,
    );
    expect(own.stdout).toMatch(/\nDropped: none of their photos can be used\n {2}broken: .+\n/);
    const merged = await adbatch(['scan', root, '--subfolders', 'parent', '--json', ...folders()]);
    expect(merged.code, merged.stderr).toBe(0);
    const plan = JSON.parse(merged.stdout);
    expect(plan.products.map((p: { name: string; photos: unknown[] }) => [p.name, p.photos.length])).toEqual([
      ['linen-shirt', 2],
    ]);
    expect(plan.nested).toEqual([
      { folder: join('linen-shirt', 'detail'), parent: 'linen-shirt', merged: true },
    ]);
    expect(plan.dropped.map((p: { folder: string }) => p.folder)).toEqual(['broken']);
    const wrong = await adbatchInProcess(['scan', root, '--subfolders', 'merge', ...folders()]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/--subfolders.*merge.*own, parent/s);
  });

  it('prints the plan as one JSON document, problems with reasons, and exits 0', async () => {
    const result = await adbatch(['scan', dropped, '--json', ...folders()]);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.products.map((p: { name: string; path: string }) => [p.name, p.path])).toEqual([
      ['CUP9', join('flat', 'CUP9')],
      ['MUG1', join('flat', 'MUG1')],
      ['product-01', 'product-01'],
      ['product-02', 'product-02'],
    ]);
    for (const product of plan.products) {
      for (const photo of product.photos) {
        expect(Object.keys(photo)).toEqual(['file', 'width', 'height', 'hash']);
        expect(photo.hash).toMatch(/^[0-9a-f]{64}$/);
        expect(photo.width).toBeGreaterThan(0);
      }
    }
    expect(plan.problems).toEqual([
      {
        file: join(dropped, 'product-01', 'broken.jpg'),
        reason: 'not an image: a text file',
        severity: 'error',
        code: 'not_an_image',
      },
    ]);
    expect(plan.skipped).toEqual([{ file: join(dropped, 'product-02', '.DS_Store'), reason: 'hidden file' }]);
  });

  it('prints a readable plan: products, hero first, and the problems', async () => {
    const result = await adbatch(['scan', dropped, ...folders()], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^4 products, 7 photos; 1 rejected, 0 warnings, 1 file skipped\n/);
    // A product's folder is shown only where it says more than its name.
    expect(result.stdout).toContain(`\nproduct-01\n  hero  ${join('dropped', 'product-01', '1.png')}`);
    expect(result.stdout).toContain(`\nCUP9  (${join('flat', 'CUP9')})\n  hero  `);
    expect(result.stdout).toContain(
      `  error    ${join('dropped', 'product-01', 'broken.jpg')}: not an image: a text file`,
    );
  });

  it('counts one of a kind in the singular', async () => {
    const single = join(dir, 'single');
    await makeProductFolders(single, 1);
    await writeFile(join(single, 'product-01', 'notes.txt'), 'shoot on white');
    await writeFile(join(single, 'product-01', '.DS_Store'), 'junk');
    const result = await adbatch(['scan', single, ...folders()], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('1 product, 1 photo; 0 rejected, 1 warning, 1 file skipped');
  });

  it('exits 1 when an input cannot be read, having scanned the rest, without a stack trace', async () => {
    const result = await adbatch(['scan', join(dir, 'missing'), dropped, '--json', ...folders()]);
    expect(result.code).toBe(1);
    const plan = JSON.parse(result.stdout);
    expect(plan.products).toHaveLength(4);
    expect(plan.problems[0]).toMatchObject({ file: join(dir, 'missing'), code: 'missing_input' });
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("passes over the bundled examples' own readme and licence quietly: no problem reported", async () => {
    const examples = join(__dirname, '../../../resources/examples');
    const result = await adbatch(['scan', examples, '--json', ...folders()]);
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.problems).toEqual([]);
    expect(plan.products).toHaveLength(13);
    expect(plan.skipped).toEqual([
      { file: join(examples, 'LICENSE-solidus.md'), reason: 'a readme or licence beside the photos' },
      { file: join(examples, 'README.md'), reason: 'a readme or licence beside the photos' },
    ]);
  });

  it('refuses an invalid --pattern with a clear message', async () => {
    const result = await adbatchInProcess(['scan', dropped, '--pattern', '([a-z', ...folders()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--pattern is not a valid regular expression/);
  });
});

describe('adbatch scan: what Adbatch wrote is never an input', () => {
  it('passes over its library in the dropped folder by path, and one moved elsewhere by its mark', async () => {
    // ~/Pictures with the default library in it, beside a folder of the designer's photos.
    const pictures = join(dir, 'Pictures');
    const where = { dataDir: join(dir, 'own-data'), library: join(pictures, 'Adbatch') };
    await makeProductFolders(join(pictures, 'spring'), 2);
    const shot = await adbatch(sandboxRunArgs([join(pictures, 'spring')], where));
    expect(shot.code, shot.stderr).toBe(0);
    const own = ['--library', where.library, '--data-dir', where.dataDir];

    const text = await adbatch(['scan', pictures, ...own], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^2 products, 2 photos; 0 rejected, 0 warnings, 0 files skipped\n/);
    expect(text.stdout).toContain(
      `\nSkipped: what Adbatch wrote\n  ${join('Pictures', 'Adbatch')}: Adbatch's own library\n`,
    );
    const json = await adbatch(['scan', pictures, '--json', ...own]);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.products.map((product: { path: string }) => product.path)).toEqual([
      join('spring', 'product-01'),
      join('spring', 'product-02'),
    ]);
    expect(plan.skipped).toEqual([
      { file: where.library, reason: "Adbatch's own library", adbatchFolder: 'library' },
    ]);

    // Moved where no path Adbatch keeps reaches it: known by the mark it made the library with.
    const moved = join(dir, 'Moved');
    await mkdir(moved);
    await rename(where.library, join(moved, 'Adbatch old'));
    await makeProductFolders(join(moved, 'fresh'), 1);
    const again = JSON.parse((await adbatch(['scan', moved, '--json', ...own])).stdout);
    expect(again.products.map((product: { path: string }) => product.path)).toEqual([
      join('fresh', 'product-01'),
    ]);
    expect(again.skipped).toEqual([
      { file: join(moved, 'Adbatch old'), reason: "Adbatch's own library", adbatchFolder: 'library' },
    ]);
    expect(again.problems).toEqual([]);

    // A shot copied out of the library beside the designer's photo: known by its bytes, passed over alone.
    const result = (await readdir(join(moved, 'Adbatch old'), { recursive: true })).find((path) =>
      /001 product-01[/\\][^/\\]+\.(png|jpe?g|webp)$/.test(path),
    );
    expect(result).toBeDefined();
    await copyFile(join(moved, 'Adbatch old', result!), join(moved, 'fresh', 'product-01', 'ai.png'));
    const copied = await adbatch(['scan', join(moved, 'fresh'), ...own], { cwd: dir });
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/^1 product, 1 photo; /);
    expect(copied.stdout).toContain(
      `\nSkipped: what Adbatch wrote\n  ${join('Moved', 'fresh', 'product-01', 'ai.png')}: a result Adbatch downloaded (product-01, in batch “`,
    );
    // A run says so too, and shoots the designer's photo alone (shot before, from spring: again, on purpose).
    const run = await adbatch(sandboxRunArgs([join(moved, 'fresh')], where, ['--include-done']), {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `skipped: ${join('Moved', 'fresh', 'product-01', 'ai.png')}: a result Adbatch downloaded (product-01, in batch “`,
    );
    expect(run.stdout).toMatch(/Total\s+1\n/);
  }, 120_000);
});

describe('adbatch run: the same ingest, and products already shot', () => {
  const run = (...extra: string[]) =>
    runOnSandbox(
      [join(dropped, 'product-01'), join(dropped, 'product-02')],
      { dataDir: join(dir, 'data'), library: join(dir, 'library') },
      extra,
    );

  it('shoots the checked photos, then sets aside what was already shot unless told otherwise', async () => {
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('broken.jpg: not an image: a text file');
    expect(first.stdout).toMatch(/Total\s+2\n/);

    // Run again: one line says what was skipped and the flag that includes it, not a warning per product.
    const second = await run();
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      'Skipped 2 products already shot from these photos with these settings (product-01, product-02); --include-done shoots them again.\n',
    );
    expect(second.stdout).not.toContain('Nothing to shoot');
    expect(second.stderr).not.toMatch(/already shot/);

    const again = await run('--include-done');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Total\s+2\n/);
    // A batch started again gets a name of its own, even within the minute the first one was named in.
    const started = (output: string) => /Batch \S+ started: (.+)\n/.exec(output)?.[1];
    expect(started(first.stdout)).toBeDefined();
    expect(started(again.stdout)).toBeDefined();
    expect(started(again.stdout)).not.toBe(started(first.stdout));
  });

  it("names the batch in the computer's own time after the first input that gave a product", async () => {
    // UTC+14 all year: its date and hour differ from UTC's whenever the test runs.
    const timeZone = 'Pacific/Kiritimati';
    const stamp = (at: number) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-CA', {
          timeZone,
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(at)
          .map((part) => [part.type, part.value]),
      );
      return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
    };
    const notes = join(dir, 'README.md');
    await writeFile(notes, '# what these photos are\n');
    const before = Date.now();
    const result = await runOnSandbox(
      [notes, join(dropped, 'flat')],
      { dataDir: join(dir, 'named-data'), library: join(dir, 'named-library') },
      [],
      { ...process.env, TZ: timeZone },
    );
    const after = Date.now();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('README.md: not an image: a text file');
    const name = /Batch \S+ started: (.+)\n/.exec(result.stdout)?.[1];
    expect([`${stamp(before)} flat`, `${stamp(after)} flat`]).toContain(name);
  });
});
