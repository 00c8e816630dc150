import type { Recipe } from '../../../src-main/shared/export-recipe.ts';
import { VIDEO_CHANNEL_WORDS } from '../../../src-main/shared/words.ts';

// A recipe in a few words for the export dialog's list, and the id a new recipe of the designer's is saved
// under.

const FORMATS: Record<Recipe['format']['type'], string> = {
  original: 'Same format',
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  avif: 'AVIF',
};

const FITS = { pad: 'padded', crop: 'cropped', inside: 'fitted inside' } as const;

/**
 * "JPEG 90 · 2048 × 2048, padded · 2048 px recommended": format, size, and the first size check; then, for a
 * recipe that makes videos, for which channel ("MP4 for Amazon" alone when it takes nothing else).
 */
export function recipeWords(recipe: Recipe): string {
  const videos = recipe.video && `MP4 for ${VIDEO_CHANNEL_WORDS[recipe.video.channel]}`;
  if (videos && recipe.kinds.every((kind) => kind === 'video')) return videos;
  const format =
    'quality' in recipe.format
      ? `${FORMATS[recipe.format.type]} ${recipe.format.quality}`
      : FORMATS[recipe.format.type];
  const size =
    recipe.size.kind === 'original'
      ? 'original size'
      : recipe.size.kind === 'long-edge'
        ? `long edge ${recipe.size.px} px`
        : `${recipe.size.width} × ${recipe.size.height}, ${FITS[recipe.size.fit]}`;
  const { minLongEdge, recommendedLongEdge } = recipe.preflight;
  const check = minLongEdge
    ? ` · at least ${minLongEdge} px`
    : recommendedLongEdge
      ? ` · ${recommendedLongEdge} px recommended`
      : '';
  return `${format} · ${size}${recipe.allowUpscale ? ', enlarges' : ''}${check}${videos ? ` · ${videos}` : ''}`;
}

/** A recipe id from its name (lower case, digits, dashes), not one of `taken`. */
export function recipeIdFor(name: string, taken: readonly string[]): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'recipe';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}
