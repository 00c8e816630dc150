import { describe, expect, it } from 'vitest';
import { qualityAdvice, shotSize } from '../../../../src-main/core/export/quality-advice.ts';
import { builtInRecipe } from '../../../../src-main/core/export/recipes.ts';
import type { Recipe } from '../../../../src-main/shared/export-recipe.ts';

// Issue 29 point 3: before a batch, the recipes the designer exports with are measured against the chosen
// quality's shots by the pre-flight's own measure, and each one they fall short of names the quality to choose.

const recipe = (id: string): Recipe => builtInRecipe(id)!;

describe('the advice before a batch', () => {
  it('sizes a shot by its quality and aspect ratio', () => {
    expect(shotSize('standard', '1:1')).toEqual({ width: 1024, height: 1024 });
    expect(shotSize('pro', '4:5')).toEqual({ width: 1638, height: 2048 });
    expect(shotSize('4k', '16:9')).toEqual({ width: 4096, height: 2304 });
  });

  it('names the quality that reaches each recipe the chosen one falls short of', () => {
    const recipes = ['shopify', 'amazon-main', 'web', 'original'].map(recipe);
    expect(qualityAdvice(recipes, 'standard', '1:1')).toEqual([
      'Shopify wants 2048 px: choose Pro (2K).',
      'Amazon main wants 1600 px: choose Pro (2K).',
    ]);
    expect(qualityAdvice(recipes, 'pro', '1:1')).toEqual([]);
  });

  it('counts the frame the shot is fitted in, as the pre-flight does', () => {
    // A square Standard shot padded into 9:16 is made 1024 x 1820, not enlarged: short of 1920 px.
    expect(qualityAdvice([recipe('story-reels')], 'standard', '1:1')).toEqual([
      'Story and Reels wants 1920 px: choose Pro (2K).',
    ]);
    // A 4:5 Pro shot fills the 2048 square's height: enough for Shopify.
    expect(qualityAdvice([recipe('shopify'), recipe('instagram-feed')], 'pro', '4:5')).toEqual([]);
  });

  it('leaves out recipes that take no shots', () => {
    expect(qualityAdvice([recipe('amazon-video')], 'standard', '1:1')).toEqual([]);
  });
});
