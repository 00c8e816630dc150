import { describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../../src-main/core/export/export-item.ts';
import {
  type NameValues,
  renderFileName,
  renderFolders,
  TemplateError,
} from '../../../../src-main/core/export/names.ts';
import { planExport } from '../../../../src-main/core/export/plan.ts';
import {
  BUILT_IN_RECIPES,
  builtInRecipe,
  parseRecipe,
  RecipeError,
} from '../../../../src-main/core/export/recipes.ts';
import {
  cutMiddle,
  NameClaims,
  safeComponent,
  withSuffix,
} from '../../../../src-main/core/util/safe-names.ts';
import { exportItem } from '../../../support/export-item.ts';

const VALUES: NameValues = {
  brand: 'Solidus',
  product: 'Cap / Black',
  sku: 'B000123456',
  handle: 'cap-black',
  title: 'Cap / Black',
  style: 'classic',
  recipe: 'Shopify',
  date: '2026-11-23',
  batch: 'Autumn',
  ext: 'jpg',
  shot: 2,
  n: 7,
  stars: 4,
  w: 2048,
  h: 1365,
};

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('name templates', () => {
  it('fills every token, pads numbers, and keeps a value from making a folder', () => {
    expect(
      renderFileName(
        '{brand}_{product}_{sku}_{handle}_{style}_{shot}_{n:03}_{stars}_{w}x{h}_{recipe}_{date}_{batch}.{ext}',
        VALUES,
      ),
    ).toBe(
      'Solidus_Cap _ Black_B000123456_cap-black_classic_2_007_4_2048x1365_Shopify_2026-11-23_Autumn.jpg',
    );
    expect(renderFileName('{sku}.PT{n:02}', VALUES)).toBe('B000123456.PT07.jpg');
    expect(renderFolders('{recipe}/{product}//{batch}', VALUES)).toEqual([
      'Shopify',
      'Cap _ Black',
      'Autumn',
    ]);
  });

  it('refuses an unknown token, a padded text and a stray brace, naming them', () => {
    expect(() => renderFileName('{prodcut}.{ext}', VALUES)).toThrow(/unknown token \{prodcut\}.*\{product\}/);
    expect(() => renderFileName('{sku:03}', VALUES)).toThrow(/pads \{sku\}, which is not a number/);
    expect(() => renderFileName('{n:3}', VALUES)).toThrow(TemplateError);
    expect(() => renderFileName('{sku', VALUES)).toThrow(/brace/);
    expect(() => renderFileName('{recipe}/{sku}', VALUES)).toThrow(/folder separator/);
  });
});

describe('safe names', () => {
  it('makes Windows device names, forbidden characters and trailing dots safe, with any extension', () => {
    expect(safeComponent('CON.jpg', 'file')).toBe('_CON.jpg');
    expect(safeComponent('nul .tar.gz', 'file')).toBe('_nul .tar.gz');
    expect(safeComponent('com1', 'folder')).toBe('_com1');
    expect(safeComponent('LPT9.PT01.jpg', 'file')).toBe('_LPT9.PT01.jpg');
    expect(safeComponent('COM10.jpg', 'file')).toBe('COM10.jpg');
    // COM0 and LPT0 are Windows devices too (the library's rule had them; the one rule keeps the stricter).
    expect(safeComponent('COM0.jpg', 'file')).toBe('_COM0.jpg');
    expect(safeComponent('lpt0', 'folder')).toBe('_lpt0');
    expect(safeComponent('a<b>c:d"e|f?g*h\u0001i.jpg', 'file')).toBe('a_b_c_d_e_f_g_h_i.jpg');
    expect(safeComponent('  Summer. . ', 'folder')).toBe('Summer');
    expect(safeComponent('...', 'folder')).toBe('_');
    expect(safeComponent('.MAIN.jpg', 'file')).toBe('_.MAIN.jpg');
    // A right-to-left override would show this name as "photoexe.jpg": no name carries one.
    expect(safeComponent('photo\u202egpj.exe', 'file')).toBe('photo_gpj.exe');
    expect(safeComponent('a\u2066b\u2069.jpg', 'file')).toBe('a_b_.jpg');
  });

  it('normalises to NFC', () => {
    const decomposed = 'Cafe\u0301.jpg';
    expect(safeComponent(decomposed, 'file')).toBe('Caf\u00e9.jpg');
  });

  it('keeps a name within 255 UTF-8 bytes without splitting a character, the extension kept', () => {
    const long = `${'é'.repeat(200)}👩‍👩‍👧${'x'.repeat(50)}.jpeg`;
    const safe = safeComponent(long, 'file');
    expect(bytes(safe)).toBeLessThanOrEqual(255);
    expect(safe.endsWith('.jpeg')).toBe(true);
    expect(safe).toBe(`${'é'.repeat(125)}.jpeg`);
    const emoji = safeComponent(`${'a'.repeat(240)}👩‍👩‍👧.png`, 'file');
    expect(emoji).toBe(`${'a'.repeat(240)}.png`);
    const suffixed = withSuffix(safe, 12);
    expect(bytes(suffixed)).toBeLessThanOrEqual(255);
    expect(suffixed.endsWith(' (12).jpeg')).toBe(true);
  });

  it('cuts an export name in its middle, keeping the end that tells similar names apart', () => {
    const stem = `Long catalog title ${'word '.repeat(60)}Black Cap-classic`;
    const second = safeComponent(`${stem}-02-feed.jpg`, 'file', { cut: 'middle' });
    const first = safeComponent(`${stem}-01-feed.jpg`, 'file', { cut: 'middle' });
    expect(bytes(first)).toBeLessThanOrEqual(255);
    expect(first).toMatch(/^Long catalog title word .*….*Black Cap-classic-01-feed\.jpg$/);
    expect(second).not.toBe(first);
    // Within a length too (the room a path leaves under Windows' 260), never splitting a character.
    expect(cutMiddle('ab👩‍👩‍👧cdefgh-01', 8)).toBe('ab…-01');
    expect(cutMiddle('short', 10)).toBe('short');
    expect(safeComponent(`${stem}-01-feed.jpg`, 'file', { cut: 'middle', maxLength: 40 })).toBe(
      'Long catalog titl…ap-classic-01-feed.jpg',
    );
  });

  it('tells apart names that differ only in case or Unicode spelling, and keeps one spelling per folder', () => {
    const claims = new NameClaims();
    expect(claims.claim('Cap/shot.jpg', 'a')).toBe('Cap/shot.jpg');
    expect(claims.claim('cap/SHOT.jpg', 'b')).toBe('Cap/SHOT (2).jpg');
    expect(claims.claim('CAP/Caf\u00e9.jpg', 'c')).toBe('Cap/Caf\u00e9.jpg');
    expect(claims.claim('Cap/Cafe\u0301.jpg'.normalize('NFC'), 'd')).toBe('Cap/Caf\u00e9 (2).jpg');
  });
});

describe('recipes', () => {
  it('has the eight built-ins, and refuses a recipe with a clear reason', () => {
    expect(BUILT_IN_RECIPES.map((recipe) => recipe.name)).toEqual([
      'Original',
      'Shopify',
      'Amazon main',
      'Amazon additional',
      'Instagram feed',
      'Story and Reels',
      'Amazon video',
      'Web',
    ]);
    expect(builtInRecipe('amazon MAIN')?.fileTemplate).toBe('{sku}.MAIN.{ext}');
    const mine = (changes: Record<string, unknown>) => () =>
      parseRecipe({ id: 'x', name: 'Mine', size: { kind: 'original' }, fileTemplate: 'a', ...changes });
    expect(mine({ format: { type: 'bmp' } })).toThrow(/Recipe "Mine" is not valid: format/);
    expect(mine({ format: { type: 'jpeg' }, metadata: { keepSource: true } })).toThrow(RecipeError);
  });
});

function item(overrides: Partial<ExportItem> & { key: string }): ExportItem {
  return exportItem({
    file: `/nowhere/${overrides.key}.jpg`,
    productKey: 'p1',
    sku: 'B000CAP',
    handle: 'cap',
    credits: 1,
    sourcePhotos: ['cap.png'],
    ...overrides,
  });
}

describe('the plan', () => {
  // Only the names are planned here: the sizes a source would have are given, nothing is read.
  const readInfo = async () => ({ width: 3000, height: 2000, ext: 'jpg' });

  it('names Amazon main and additional images per product from its picks, in order', async () => {
    const items = [
      item({ key: 'a1', shot: 1 }),
      item({ key: 'a2', shot: 2, flag: 'rejected' }),
      item({ key: 'a3', shot: 3 }),
      item({ key: 'a4', shot: 4 }),
      item({ key: 'b1', productKey: 'p2', product: 'Hat', handle: 'hat', sku: 'B000HAT', shot: 1 }),
    ];
    const plan = await planExport({
      items,
      recipes: [builtInRecipe('amazon-main'), builtInRecipe('amazon-additional'), builtInRecipe('shopify')],
      date: '2026-11-23',
      readInfo,
    });
    expect(plan.files.map((file) => file.relativePath)).toEqual([
      'Amazon main/B000CAP.MAIN.jpg',
      'Amazon main/B000HAT.MAIN.jpg',
      'Amazon additional/B000CAP.PT01.jpg',
      'Amazon additional/B000CAP.PT02.jpg',
      'Shopify/cap-01.jpg',
      'Shopify/cap-02.jpg',
      'Shopify/cap-03.jpg',
      'Shopify/hat-01.jpg',
    ]);
    expect(plan.files[0]).toMatchObject({ width: 2000, height: 1333 });
    expect(plan.files.at(-1)).toMatchObject({ width: 2048, height: 2048 });
  });

  it('resolves collisions, case-only ones and reserved names the same way on every run', async () => {
    const items = [
      item({ key: 'a1', product: 'CON', handle: 'con' }),
      item({ key: 'b1', productKey: 'p2', product: 'con', handle: 'CON' }),
      item({ key: 'c1', productKey: 'p3', product: 'Cafe\u0301', handle: 'caf\u00e9' }),
      item({ key: 'd1', productKey: 'p4', product: 'Caf\u00e9', handle: 'CAF\u00c9' }),
    ];
    const recipe = {
      ...builtInRecipe('shopify')!,
      fileTemplate: '{product}.{ext}',
      folderTemplate: '{recipe}/{handle}',
    };
    const plan = () => planExport({ items, recipes: [recipe], date: '2026-11-23', readInfo });
    const paths = (await plan()).files.map((file) => file.relativePath);
    expect(paths).toEqual([
      'Shopify/_con/_CON.jpg',
      'Shopify/_con/_con (2).jpg',
      'Shopify/caf\u00e9/Caf\u00e9.jpg',
      'Shopify/caf\u00e9/Caf\u00e9 (2).jpg',
    ]);
    expect((await plan()).files.map((file) => file.relativePath)).toEqual(paths);
  });

  it('takes picks by default, stars or everything not rejected when asked, and blocks a name that needs a missing SKU', async () => {
    const items = [
      item({ key: 'a1', flag: 'picked' }),
      item({ key: 'a2', flag: null, stars: 3 }),
      item({ key: 'a3', flag: null, stars: 1 }),
      item({ key: 'a4', flag: 'rejected', stars: 5 }),
      item({ key: 'v1', kind: 'video', flag: 'picked', sku: '' }),
      item({ key: 's1', kind: 'source', flag: null }),
    ];
    const recipes = [builtInRecipe('original')];
    const keys = async (selection: Parameters<typeof planExport>[0]['selection']) =>
      (await planExport({ items, recipes, date: '2026-11-23', readInfo, selection })).files.map(
        (file) => file.item.key,
      );
    expect(await keys(undefined)).toEqual(['a1', 'v1']);
    expect(await keys({ rule: 'picked-or-stars', minStars: 3, videos: false, sources: false })).toEqual([
      'a1',
      'a2',
    ]);
    expect(await keys({ rule: 'not-rejected', minStars: 0, videos: true, sources: true })).toEqual([
      'a1',
      'a2',
      'a3',
      'v1',
      's1',
    ]);
    const amazon = await planExport({
      items: [item({ key: 'x', sku: '' })],
      recipes: [builtInRecipe('amazon-main')],
      date: '2026-11-23',
      readInfo,
    });
    // A name the recipe needs and the product lacks blocks its files (issue 29): never `_.MAIN.jpg`.
    expect(amazon.files).toEqual([]);
    expect(amazon.notices).toEqual([]);
    expect(amazon.missing).toEqual([
      { recipe: 'Amazon main', token: 'sku', reason: 'missing', products: ['Cap'] },
    ]);
  });
});
