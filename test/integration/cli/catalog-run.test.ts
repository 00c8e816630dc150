import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch, runOnSandbox } from '../../support/cli.ts';
import { listFiles } from '../../support/library-checks.ts';
import { PRODUCT_FIXTURES_DIR, type StaticServer, startStaticServer } from '../../support/static-server.ts';

// The issue's acceptance: "A Shopify export CSV with several products runs as a batch in the sandbox without
// any upload". The real CLI, as a user runs it, on a Shopify export whose Image Src URLs point at a photo
// host on 127.0.0.1 serving real product photos: the sandbox fetches them from there, nothing is uploaded
// or served from this machine. That photo host is on this computer, which the outbound policy refuses unless
// allowed by name: each command here allows it with --allow-host, as a designer serving their own would.

let dir: string;
let statics: StaticServer;
let shopify: string;

/** handle, title, photos in the order the export lists them, and the position of each. */
const PRODUCTS = [
  {
    handle: 'solidus-cap-red',
    title: 'Solidus Cap, Red',
    photos: [
      ['cap-red/solidus_cap_red_2.png', 2],
      ['cap-red/solidus_cap_red_3.png', 3],
      ['cap-red/solidus_cap_red_1.png', 1],
    ],
  },
  {
    handle: 'solidus-hoodie-red',
    title: 'Solidus Hoodie',
    photos: [
      ['hoodie-red/solidus_hoodie_red_1.png', 1],
      ['hoodie-red/solidus_hoodie_red_2.png', 2],
    ],
  },
  { handle: 'solidus-hat', title: 'Solidus Hat', photos: [['hat/solidus_hat.png', 1]] },
  { handle: 'canvas-tote', title: 'Canvas Tote', photos: [['tote/solidus_canvas_tote.png', 1]] },
] as const;

/** `--allow-host` for the test's photo host (its address and port). */
const allowPhotos = () => ['--allow-host', new URL(statics.url).host];

/** A product's photo URLs, hero first. */
function heroFirst(product: (typeof PRODUCTS)[number]): string[] {
  return [...product.photos].sort((a, b) => a[1] - b[1]).map(([path]) => statics.urlOf(path));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-catalog-run-'));
  statics = await startStaticServer();
  const header =
    'Handle,Title,Body (HTML),Vendor,Type,Tags,Published,Option1 Name,Option1 Value,Variant SKU,Variant Price,Image Src,Image Position,Image Alt Text,Status';
  const rows: string[] = [];
  for (const product of PRODUCTS) {
    product.photos.forEach(([path, position], index) => {
      const first = index === 0;
      rows.push(
        [
          product.handle,
          first ? `"${product.title}"` : '',
          first
            ? `"<p>${product.title}: soft, durable, ""made to last"".</p>\n<ul><li>Cotton, 100%</li></ul>"`
            : '',
          first ? 'Solidus' : '',
          first ? 'Apparel' : '',
          first ? '"summer, cotton"' : '',
          first ? 'TRUE' : '',
          first ? 'Size' : '',
          first ? 'M' : '',
          first ? `${product.handle.toUpperCase()}-M` : '',
          first ? '25.00' : '',
          statics.urlOf(path),
          String(position),
          '',
          first ? 'active' : '',
        ].join(','),
      );
      // A second variant of the product, without an image of its own.
      if (first) rows.push(`${product.handle},,,,,,,,L,${product.handle.toUpperCase()}-L,25.00,,,,`);
    });
  }
  shopify = join(dir, 'products_export_1.csv');
  await writeFile(shopify, `\uFEFF${[header, ...rows].join('\r\n')}\r\n`);
});

afterAll(async () => {
  await statics?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Text as Windows-1252 bytes (what Excel's plain "CSV" writes on a Western Windows): Latin-1 and a few. */
function windows1252(text: string): Buffer {
  const beyondLatin1: Record<string, number> = { '€': 0x80, '–': 0x96, '—': 0x97, '’': 0x92 };
  return Buffer.from(
    [...text].map((char) => {
      const byte = beyondLatin1[char] ?? char.charCodeAt(0);
      if (byte > 0xff) throw new Error(`${char} is not in Windows-1252 here`);
      return byte;
    }),
  );
}

/** Where scan keeps its cache when no --library is given: never the user's own Pictures folder here. */
const scanEnv = () => ({
  ADBATCH_LIBRARY: join(dir, 'scan-library'),
  ADBATCH_DATA_DIR: join(dir, 'scan-data'),
});

describe('adbatch run on a Shopify export', () => {
  it('runs the batch in the sandbox from the public URLs, uploading nothing', async () => {
    const data = join(dir, 'data');
    const library = join(dir, 'library');
    const result = await runOnSandbox([shopify], { dataDir: data, library }, allowPhotos());
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    // Nothing was turned away, and no photo had to be made reachable (uploaded or served): they already were.
    expect(result.stderr).not.toMatch(/error|warning/);
    expect(result.stderr).not.toMatch(/Uploading photos/);
    for (const product of PRODUCTS) expect(result.stdout).toContain(product.title);

    const manifestPath = /Manifest: (.+)/.exec(result.stdout)?.[1];
    expect(manifestPath).toBeTruthy();
    const manifest = JSON.parse(await readFile(manifestPath!, 'utf8'));
    expect(manifest.batch.sandbox).toBe(true);
    expect(manifest.batch.status).toBe('finished');
    expect(manifest.products.map((product: { name: string }) => product.name)).toEqual(
      PRODUCTS.map((product) => product.title),
    );
    for (const [index, product] of manifest.products.entries()) {
      expect(product.source).toBe(shopify);
      expect(product.photos).toEqual(heroFirst(PRODUCTS[index]!));
      expect(product.jobs).toHaveLength(1);
      expect(product.jobs[0]).toMatchObject({ kind: 'shoot', state: 'done', failure: null });
      const images = product.jobs[0].files.filter((file: { kind: string }) => file.kind === 'image');
      expect(images).toHaveLength(1);
      for (const file of product.jobs[0].files) {
        expect(file.state).toBe('done');
        const path = join(dirname(manifestPath!), file.path);
        expect(existsSync(path), path).toBe(true);
        const bytes = await readFile(path);
        expect(bytes.length).toBe(file.bytes);
        const meta = await sharp(bytes, { failOn: 'error' }).metadata();
        expect(meta.width).toBeGreaterThan(0);
        expect(meta.height).toBeGreaterThan(0);
      }
    }
    const files = await listFiles(library);
    // One shot and its thumbnail per product, the manifest, the marks that say Adbatch wrote the library,
    // the batch's folder and each product's folder and its thumbnails' (never scanned as products), and
    // nothing else: no cached copies of the photos.
    expect(files.filter((file) => /\/\d{3} [^/]+\/shot-1\.jpg$/.test(file))).toHaveLength(PRODUCTS.length);
    expect(files.filter((file) => /\/thumbnails\/shot-1\.jpg$/.test(file))).toHaveLength(PRODUCTS.length);
    expect(files.filter((file) => /\/\.adbatch-(library|batch)$/.test(file))).toHaveLength(2);
    expect(files.filter((file) => /\/\.adbatch-results$/.test(file))).toHaveLength(2 * PRODUCTS.length);
    expect(files).toHaveLength(4 * PRODUCTS.length + 1 + 2);

    // Every catalog photo was asked for twice: the scan's small check, then the sandbox's fetch to shoot it.
    const hits = statics.hits();
    for (const product of PRODUCTS) {
      for (const [path] of product.photos) {
        expect(hits.filter((hit) => hit === `/${path}`).length, path).toBeGreaterThanOrEqual(2);
      }
    }

    // What the queue kept: every photo by its URL, none by a path on this machine.
    const db = new Database(join(data, 'adbatch.db'), { readonly: true });
    try {
      const rows = db
        .prepare('SELECT name, source_dir, photos FROM products ORDER BY position')
        .all() as Array<{
        name: string;
        source_dir: string;
        photos: string;
      }>;
      expect(rows.map((row) => row.name)).toEqual(PRODUCTS.map((product) => product.title));
      rows.forEach((row, index) => {
        const photos = JSON.parse(row.photos) as Array<{ path: string | null; url: string | null }>;
        expect(photos.map((photo) => photo.url)).toEqual(heroFirst(PRODUCTS[index]!));
        for (const photo of photos) expect(photo.path).toBeNull();
      });
    } finally {
      db.close();
    }
  }, 120_000);
});

describe('adbatch scan on a Shopify export', () => {
  it('prints the plan as JSON: products with their URL photos, hero first, and no problems', async () => {
    const result = await adbatch(['scan', shopify, '--json', ...allowPhotos()], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(result.code, result.stderr).toBe(0);
    // Nothing on stderr but the one line that says which library keeps the thumbnails.
    expect(result.stderr).toBe(`adbatch: library: ${scanEnv().ADBATCH_LIBRARY} (as ADBATCH_LIBRARY says)\n`);
    const plan = JSON.parse(result.stdout);
    expect(plan.problems).toEqual([]);
    expect(plan.products).toEqual(
      PRODUCTS.map((product) => ({
        name: product.title,
        path: product.handle,
        photos: heroFirst(product).map((url) => ({
          file: url,
          url,
          width: url.endsWith('hoodie_red_2.png') ? 1440 : 1360,
          height: url.endsWith('hoodie_red_2.png') ? 794 : 1190,
          hash: null,
        })),
      })),
    );
  });

  it('without --allow-host, refuses every photo on this computer, saying how to allow it, asking nothing', async () => {
    const before = statics.hits().length;
    const result = await adbatch(['scan', shopify, '--json'], { env: { ...process.env, ...scanEnv() } });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan.products).toEqual([]);
    const host = new URL(statics.url).host;
    const photoProblems = plan.problems.filter((problem: { code: string }) => problem.code === 'not_public');
    expect(photoProblems).toHaveLength(PRODUCTS.reduce((sum, product) => sum + product.photos.length, 0));
    const path = PRODUCTS[0].photos[0][0];
    expect(photoProblems).toContainEqual({
      file: statics.urlOf(path),
      // Where the catalog names it: its first photo, under the header.
      place: `${basename(shopify)}, row 2`,
      reason: `${statics.urlOf(path)} points at a loopback address (this computer) (127.0.0.1); Adbatch fetches only public addresses. To allow it: --allow-host ${host}, or add it to Allowed hosts in Settings`,
      severity: 'error',
      code: 'not_public',
    });
    expect(statics.hits().length).toBe(before);
    // Allowed on another port only: still refused.
    const otherPort = await adbatch(['scan', shopify, '--json', '--allow-host', '127.0.0.1:1'], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(JSON.parse(otherPort.stdout).products).toEqual([]);
    // Allowed through the environment, as `resume` and `videos` take it: taken.
    const fromEnv = await adbatch(['scan', shopify, '--json'], {
      env: { ...process.env, ...scanEnv(), ADBATCH_ALLOW_HOSTS: `example.test,${host}` },
    });
    expect(JSON.parse(fromEnv.stdout).products).toHaveLength(PRODUCTS.length);
  });

  it('reads the export as Excel in Germany saves it again: semicolons, Windows-1252 and a short SKU, said', async () => {
    // Opened and saved as "CSV" by Excel set to German: cells split by semicolons (a comma is the decimal
    // mark there) and the text in Windows-1252, where "ü" is one byte that is not UTF-8.
    const resaved = join(dir, 'products_export_excel_de.csv');
    const lines = [
      'Handle;Title;Vendor;Variant SKU;Variant Price;Image Src;Image Position',
      `solidus-cap-red;Solidus Mütze – Rot;Solidus;CAP-RED;25,00;${statics.urlOf('cap-red/solidus_cap_red_1.png')};1`,
      // A barcode for a SKU, shown short by Excel and saved so: the export's names would be wrong.
      `solidus-hat;"Solidus Hut; Größe M";Solidus;8,71234E+12;19,90;${statics.urlOf('hat/solidus_hat.png')};1`,
    ];
    await writeFile(resaved, windows1252(`${lines.join('\r\n')}\r\n`));
    const result = await adbatch(['scan', resaved, '--json', ...allowPhotos()], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(
      plan.products.map((product: { name: string; path: string }) => [product.name, product.path]),
    ).toEqual([
      ['Solidus Mütze – Rot', 'solidus-cap-red'],
      ['Solidus Hut; Größe M', 'solidus-hat'],
    ]);
    expect(plan.problems).toEqual([
      {
        file: resaved,
        reason:
          'not UTF-8: read as Windows-1252 ("Mütze", "–", "Größe"); if a name reads wrong, save the file from your spreadsheet as "CSV UTF-8" and use that file',
        severity: 'warning',
        code: 'catalog_encoding',
      },
      {
        file: resaved,
        reason:
          "Solidus Hut; Größe M: its SKU 8,71234E+12 is a number as Excel shows it short, its last digits lost (Amazon's file names need the whole SKU): format that column as Number with no decimals (or as Text) in your spreadsheet and save it again",
        severity: 'warning',
        code: 'short_number',
      },
    ]);
    // Said in the terminal as a warning, the batch not refused for it.
    const text = await adbatch(['scan', resaved, ...allowPhotos()], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/warning +.*products_export_excel_de\.csv: not UTF-8: read as Windows-1252/);
  });

  it('says how to make a catalog of a workbook, dropped itself or found beside the photos', async () => {
    const workbook = join(dir, 'Product list.xlsx');
    const folder = join(dir, 'hat-with-sheet');
    await writeFile(workbook, Buffer.from('PK\u0003\u0004 a zip of sheets', 'latin1'));
    await mkdir(folder, { recursive: true });
    await copyFile(join(PRODUCT_FIXTURES_DIR, 'hat/solidus_hat.png'), join(folder, 'solidus_hat.png'));
    await writeFile(join(folder, 'Sizes.numbers'), Buffer.from('PK\u0003\u0004 a Numbers bundle', 'latin1'));
    const result = await adbatch(['scan', workbook, folder, '--json'], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(result.code, result.stderr).toBe(1);
    const plan = JSON.parse(result.stdout);
    expect(plan.products.map((product: { name: string }) => product.name)).toEqual(['hat-with-sheet']);
    expect(plan.problems).toEqual([
      {
        file: workbook,
        reason:
          'an Excel workbook, which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file as the catalog',
        severity: 'error',
        code: 'bad_catalog',
      },
      {
        file: join(folder, 'Sizes.numbers'),
        reason:
          'not an image: a Numbers spreadsheet, which Adbatch does not read: save it from your spreadsheet as "CSV UTF-8" and use that file as the catalog',
        severity: 'warning',
        code: 'not_an_image',
      },
    ]);
  });

  it('refuses an --allow-host that is not a host, saying what one looks like', async () => {
    const result = await adbatch(['scan', shopify, '--allow-host', 'http://x/y'], {
      env: { ...process.env, ...scanEnv() },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/"http:\/\/x\/y" is not a host to allow: write a host name or address/);
  });

  it('takes --allow-host on every command that sends input, redownload and recheck as resume does', async () => {
    // Each follows its batch to the end: its creates still to be sent fetch their input as resume's would.
    for (const command of ['resume', 'redownload', 'recheck']) {
      const bad = await adbatch([command, 'b_none', '--allow-host', 'http://x/y'], {
        env: { ...process.env, ...scanEnv() },
      });
      expect(bad.code, command).not.toBe(0);
      expect(bad.stderr, command).toMatch(
        /"http:\/\/x\/y" is not a host to allow: write a host name or address/,
      );
      const taken = await adbatch([command, 'b_none', '--allow-host', new URL(statics.url).host], {
        env: { ...process.env, ...scanEnv() },
      });
      expect(taken.stderr, command).not.toMatch(/unknown option/);
      expect(taken.stderr, command).toContain('There is no batch b_none.');
    }
  });

  it('reports a missing catalog by name and exits non-zero, without crashing', async () => {
    const missing = join(dir, 'not-exported-yet.csv');
    const json = await adbatch(['scan', missing, '--json'], { env: { ...process.env, ...scanEnv() } });
    expect(json.code).toBe(1);
    expect(json.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(json.stdout)).toMatchObject({
      products: [],
      problems: [{ file: missing, code: 'missing_input', severity: 'error' }],
    });

    const text = await adbatch(['scan', missing], { env: { ...process.env, ...scanEnv() } });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`${missing}: no such file or folder`);
    expect(text.stderr).not.toMatch(/\n\s+at |Error:/);
  });

  it('reports an unreadable catalog by name and exits non-zero', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '[{"product": "cap", "url": ');
    const result = await adbatch(['scan', broken, '--json'], { env: { ...process.env, ...scanEnv() } });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const plan = JSON.parse(result.stdout);
    expect(plan.problems).toEqual([
      {
        file: broken,
        // The problem names the file; its reason does not say it again.
        reason: expect.stringMatching(/^not valid JSON \(/),
        severity: 'error',
        code: 'bad_catalog',
      },
    ]);
  });
});
