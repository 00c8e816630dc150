import type { Recipe } from '../../shared/export-recipe.ts';
import type { Quality } from '../../shared/vocabulary.ts';
import { QUALITY_LONG_SIDE } from '../api/guesses.ts';
import { type Dimensions, outputFraming } from './geometry.ts';
import { sizeShortfall } from './plan-checks.ts';

// New batch's word before a batch (issue 29, point 3): knowing the recipes the designer exports with, which
// of them the chosen quality's shots will be too small for, and the quality that would be enough:
// "Shopify wants 2048 px: choose Pro (2K)". The measure is the pre-flight's own (sizeShortfall), applied to
// the shot the service will deliver at that quality and aspect ratio (the long sides are guesses.ts').

/** A shot's size at a quality and an aspect ratio ("4:5"): the long side is the quality's. */
export function shotSize(quality: Quality, aspectRatio: string): Dimensions {
  const [across, down] = aspectRatio.split(':').map(Number) as [number, number];
  const long = QUALITY_LONG_SIDE[quality];
  return across >= down
    ? { width: long, height: Math.round((long * down) / across) }
    : { width: Math.round((long * across) / down), height: long };
}

/** One sentence per recipe (taking shots) the quality's shots fall short of; none when they all reach. */
export function qualityAdvice(recipes: Recipe[], quality: Quality, aspectRatio: string): string[] {
  const shot = shotSize(quality, aspectRatio);
  return recipes.flatMap((recipe) => {
    if (!recipe.kinds.includes('shot')) return [];
    const short = sizeShortfall(recipe, shot, outputFraming(recipe.size, shot, recipe.allowUpscale));
    if (!short) return [];
    const needs = short.severity === 'error' ? 'needs at least' : 'wants';
    const choose = short.quality ? `: choose ${short.quality}` : ': no quality is that large';
    return [`${recipe.name} ${needs} ${short.wanted} px${choose}.`];
  });
}
