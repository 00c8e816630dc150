import { describe, expect, it } from 'vitest';
import { storedExportSnapshot, tryReadStored } from '../../../../src-main/core/db/stored.ts';
import { builtInRecipe } from '../../../../src-main/core/export/recipes.ts';
import { DEFAULT_SELECTION } from '../../../../src-main/core/export/selection.ts';

// An export's snapshot stored before `allowUpscale` keeps what its recipes said with `size.enlarge: true`:
// an interrupted export resumed enlarges as it was started to, and one that did not enlarge still does not.

const web = builtInRecipe('web')!;

function snapshotText(recipes: unknown[]): string {
  return JSON.stringify({
    items: [],
    recipes,
    selection: DEFAULT_SELECTION,
    date: '2026-11-23',
    destination: '/exports/old',
    zip: null,
    manifest: { csv: true, json: true },
  });
}

describe('a stored export snapshot from before allowUpscale', () => {
  it('reads size.enlarge: true as allowUpscale: true, and enlarge: false or none as no enlarging', () => {
    const { allowUpscale: _, ...withoutUpscale } = web;
    const text = snapshotText([
      { ...withoutUpscale, size: { ...web.size, enlarge: true } },
      { ...withoutUpscale, id: 'small', size: { ...web.size, enlarge: false } },
      withoutUpscale,
    ]);
    const snapshot = tryReadStored(storedExportSnapshot, text, 'Export e1’s snapshot');
    if (snapshot instanceof Error) throw snapshot;
    expect(snapshot.recipes.map((recipe) => recipe.allowUpscale)).toEqual([true, false, false]);
    expect(snapshot.recipes[0]!.size).toEqual({ kind: 'long-edge', px: 1600 });
  });
});
