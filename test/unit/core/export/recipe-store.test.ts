import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECIPES_FILE, RecipeStore } from '../../../../src-main/core/export/recipe-store.ts';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adbatch-recipes-'));
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const mine = {
  id: 'etsy',
  name: 'Etsy',
  format: { type: 'jpeg', quality: 85 },
  size: { kind: 'exact', width: 2000, height: 1600, fit: 'pad' },
  fileTemplate: '{handle}-{n:02}',
};

describe('the designer’s recipes', () => {
  it('are saved in the data folder, read back after the built-ins, replaced by id and removed', async () => {
    const store = new RecipeStore(dataDir);
    await store.save(mine);
    await store.save({ ...mine, format: { type: 'jpeg', quality: 70 } });
    const again = new RecipeStore(dataDir);
    const all = await again.all();
    expect(all.map((recipe) => recipe.id)).toEqual([
      'original',
      'shopify',
      'amazon-main',
      'amazon-additional',
      'instagram-feed',
      'story-reels',
      'amazon-video',
      'web',
      'etsy',
    ]);
    expect(all.at(-1)!.format).toEqual({ type: 'jpeg', quality: 70 });
    expect(await again.remove('etsy')).toBe(true);
    expect(await again.remove('etsy')).toBe(false);
    expect((await again.saved()).recipes).toEqual([]);
  });

  it('refuses a built-in’s id or a taken name, and sets aside an entry that does not parse', async () => {
    const store = new RecipeStore(dataDir);
    await expect(store.save({ ...mine, id: 'shopify' })).rejects.toThrow(/"shopify" is a built-in recipe/);
    await expect(store.save({ ...mine, name: 'amazon MAIN' })).rejects.toThrow(/already named "Amazon main"/);
    await writeFile(
      join(dataDir, RECIPES_FILE),
      JSON.stringify({ recipes: [mine, { id: 'broken', name: 'Broken' }] }),
    );
    const saved = await store.saved();
    expect(saved.recipes.map((recipe) => recipe.id)).toEqual(['etsy']);
    expect(saved.unreadable).toHaveLength(1);
    expect(saved.unreadable[0]!.reason).toMatch(/Recipe "Broken" is not valid/);
    await store.save({ ...mine, id: 'etsy-small', name: 'Etsy small' });
    const file = JSON.parse(await readFile(join(dataDir, RECIPES_FILE), 'utf8')) as {
      recipes: Array<{ id: string }>;
    };
    expect(file.recipes.map((recipe) => recipe.id)).toEqual(['etsy', 'etsy-small', 'broken']);
  });
  it('sets a file that does not parse as a whole aside as one entry, its text kept when a recipe is saved', async () => {
    const store = new RecipeStore(dataDir);
    const damaged = '{ "recipes": [ { "id": "etsy", } ] }';
    await writeFile(join(dataDir, RECIPES_FILE), damaged);
    const saved = await store.saved();
    expect(saved.recipes).toEqual([]);
    expect(saved.unreadable).toEqual([
      {
        entry: damaged,
        reason: expect.stringMatching(/export-recipes\.json cannot be read: it is not JSON \(/),
      },
    ]);
    await store.save(mine);
    const file = JSON.parse(await readFile(join(dataDir, RECIPES_FILE), 'utf8')) as { recipes: unknown[] };
    expect(file.recipes).toEqual([expect.objectContaining({ id: 'etsy' }), damaged]);
    expect((await store.saved()).recipes.map((recipe) => recipe.id)).toEqual(['etsy']);
  });

  it('reads a recipe saved with the old size.enlarge: true as allowUpscale, and saves it the new way', async () => {
    const store = new RecipeStore(dataDir);
    const old = { ...mine, size: { ...mine.size, enlarge: true } };
    const unenlarged = {
      ...mine,
      id: 'etsy-small',
      name: 'Etsy small',
      size: { ...mine.size, enlarge: false },
    };
    const decided = { ...old, id: 'etsy-big', name: 'Etsy big', allowUpscale: false };
    await writeFile(join(dataDir, RECIPES_FILE), JSON.stringify({ recipes: [old, unenlarged, decided] }));
    const saved = (await store.saved()).recipes;
    expect(saved.map((recipe) => [recipe.id, recipe.allowUpscale])).toEqual([
      ['etsy', true],
      ['etsy-small', false],
      // A recipe that says allowUpscale itself is taken at its word.
      ['etsy-big', false],
    ]);
    expect(saved[0]!.size).toEqual({
      kind: 'exact',
      width: 2000,
      height: 1600,
      fit: 'pad',
      padColour: '#ffffff',
    });
    await store.save({ ...mine, id: 'other', name: 'Other' });
    const file = JSON.parse(await readFile(join(dataDir, RECIPES_FILE), 'utf8')) as {
      recipes: Array<{ id: string; allowUpscale: boolean; size: object }>;
    };
    expect(file.recipes[0]).toMatchObject({ id: 'etsy', allowUpscale: true });
    expect(file.recipes[0]!.size).not.toHaveProperty('enlarge');
  });
});
