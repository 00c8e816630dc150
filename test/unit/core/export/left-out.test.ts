import { describe, expect, it } from 'vitest';
import type { ExportItem } from '../../../../src-main/core/export/export-item.ts';
import { planExport } from '../../../../src-main/core/export/plan.ts';
import { builtInRecipe } from '../../../../src-main/core/export/recipes.ts';
import { exportItem } from '../../../support/export-item.ts';

// What a selection leaves out, said by the plan (issue 31, point 4): of 12 videos made only the picked one
// goes out, and the plan says "11 videos not picked are not exported" rather than nothing; the reasons
// (not picked, rejected, under the stars asked, videos not asked for, no recipe for the kind) each in
// their own sentence, the same for the app, the CLI and MCP.

const readInfo = async () => ({ width: 1024, height: 1024, ext: 'jpg' });

function result(key: string, overrides: Partial<ExportItem> = {}): ExportItem {
  return exportItem({ key, file: `/nowhere/${key}.jpg`, ...overrides });
}

/** A product's 3 photos (one picked, one rejected, one undecided) and 12 videos, the first one picked. */
const items: ExportItem[] = [
  result('s1'),
  result('s2', { flag: 'rejected', shot: 2 }),
  result('s3', { flag: null, stars: 4, shot: 3 }),
  ...Array.from({ length: 12 }, (_, index) =>
    result(`v${index + 1}`, { kind: 'video', shot: index + 1, flag: index === 0 ? 'picked' : null }),
  ),
];

const plan = (selection: Parameters<typeof planExport>[0]['selection'], recipes = ['original']) =>
  planExport({
    items,
    recipes: recipes.map((id) => builtInRecipe(id)),
    date: '2026-11-27',
    readInfo,
    ...(selection ? { selection } : {}),
  });

describe('what an export leaves out', () => {
  it('says the videos made but not picked, and the photos not picked or rejected', async () => {
    const picked = await plan({ rule: 'picked', minStars: 0, videos: true, sources: false });
    expect(picked.files.map((file) => file.item.key)).toEqual(['s1', 'v1']);
    expect(picked.leftOut).toEqual([
      '1 photo not picked is not exported',
      '1 photo rejected is not exported',
      '11 videos not picked are not exported',
    ]);
  });

  it('names the stars asked for, videos not asked for, and a kind no recipe takes', async () => {
    const starred = await plan({ rule: 'picked-or-stars', minStars: 5, videos: false, sources: false });
    expect(starred.leftOut).toEqual([
      '1 photo neither picked nor given 5 stars is not exported',
      '1 photo rejected is not exported',
      '12 videos are not exported (videos are not asked for)',
    ]);
    const shopifyOnly = await plan({ rule: 'not-rejected', minStars: 0, videos: true, sources: false }, [
      'shopify',
    ]);
    expect(shopifyOnly.leftOut).toEqual([
      '1 photo rejected is not exported',
      '12 videos kept are not exported: none of the recipes takes videos',
    ]);
  });

  it('says nothing when everything goes out', async () => {
    const all = await planExport({
      items: items.filter((item) => item.flag === 'picked'),
      recipes: [builtInRecipe('original')],
      date: '2026-11-27',
      readInfo,
    });
    expect(all.files).toHaveLength(2);
    expect(all.leftOut).toEqual([]);
  });
});
