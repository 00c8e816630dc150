import { describe, expect, it } from 'vitest';
import { BUILT_IN_RECIPES, parseRecipe } from '../../../src-main/core/export/recipes.ts';
import { recipeIdFor, recipeWords } from '../../../src-renderer/src/export/recipe-words.ts';

// The export dialog's words for a recipe, from the built-ins themselves, and the id a new recipe of the
// designer's is saved under: one the recipe schema takes, never one already taken.

const named = (name: string) => BUILT_IN_RECIPES.find((recipe) => recipe.name === name)!;

describe('recipeWords', () => {
  it('says format, size and the first check of each kind of recipe, and the channel its videos are for', () => {
    expect(recipeWords(named('Shopify'))).toBe('JPEG 90 · 2048 × 2048, padded · 2048 px recommended');
    expect(recipeWords(named('Instagram feed'))).toBe('JPEG 90 · 1080 × 1350, cropped · 1080 px recommended');
    expect(recipeWords(named('Amazon main'))).toBe('JPEG 90 · long edge 2000 px · at least 1000 px');
    expect(recipeWords({ ...named('Shopify'), allowUpscale: true })).toBe(
      'JPEG 90 · 2048 × 2048, padded, enlarges · 2048 px recommended',
    );
    expect(recipeWords(named('Web'))).toBe('WebP 82 · long edge 1600 px');
    expect(recipeWords(named('Original'))).toBe('Same format · original size');
    expect(recipeWords(named('Story and Reels'))).toBe(
      'JPEG 90 · 1080 × 1920, padded · 1920 px recommended · MP4 for Instagram Reels and Stories',
    );
    expect(recipeWords(named('Amazon video'))).toBe('MP4 for Amazon');
  });
});

describe('recipeIdFor', () => {
  it('makes an id the recipe schema takes, and another when it is taken', () => {
    const ids = BUILT_IN_RECIPES.map((recipe) => recipe.id);
    expect(recipeIdFor('Amazon main', ids)).toBe('amazon-main-2');
    expect(recipeIdFor('Prînt / Große Poster!', ids)).toBe('print-gro-e-poster');
    expect(recipeIdFor('***', [])).toBe('recipe');
    expect(recipeIdFor('Print', ['print', 'print-2'])).toBe('print-3');
    for (const name of ['Amazon main', 'Prînt / Große Poster!', '***', 'x'.repeat(120)]) {
      const id = recipeIdFor(name, ids);
      expect(() => parseRecipe({ ...named('Web'), id, name: 'Mine' })).not.toThrow();
    }
  });
});
