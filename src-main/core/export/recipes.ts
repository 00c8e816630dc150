import { type Recipe, type RecipeInput, recipeSchema } from '../../shared/export-recipe.ts';

// Recipes as the engine reads them: parsed from anything with the contract's schema (shared/export-recipe.ts),
// and the built-ins. Several recipes run in one export; each source is decoded once and resized per recipe
// (render.ts).

export class RecipeError extends Error {
  override name = 'RecipeError';
}

/** A recipe from anything (a saved file, the dialog, the CLI), or a RecipeError saying what is wrong. */
export function parseRecipe(input: unknown): Recipe {
  const parsed = recipeSchema.safeParse(input);
  if (parsed.success) return withAmazonRulesByName(parsed.data);
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const name = (input as { name?: unknown } | null)?.name;
  throw new RecipeError(
    `Recipe ${typeof name === 'string' ? `"${name}" ` : ''}is not valid: ${where}${issue.message}`,
  );
}

/** Amazon's part shots, PT01 to PT08: with the MAIN, the nine images a listing shows (docs/export.md). */
const AMAZON_PART_SHOTS = 8;

/** A file template of Amazon's bulk upload: the SKU, then a variant code Amazon reads (MAIN, SWCH, PTnn). */
const AMAZON_TEMPLATE = /^\{sku\}\.(MAIN|SWCH|PT\{n(:\d+)?\}|PT\d\d)(\.|$)/;

/**
 * A recipe whose names are Amazon's bulk upload names (`{sku}.MAIN.{ext}`, `{sku}.PT{n:02}.{ext}`), made by
 * the designer or saved before `nameRules` was, follows Amazon's name rules as the built-ins do, and a
 * `PT{n}` one takes PT01 to PT08 unless it says otherwise. A guess at what its author meant: no one wants a
 * name Amazon's upload drops.
 */
function withAmazonRulesByName(recipe: Recipe): Recipe {
  const variant = AMAZON_TEMPLATE.exec(recipe.fileTemplate)?.[1];
  if (recipe.nameRules !== undefined || variant === undefined) return recipe;
  const numbered = variant.startsWith('PT{n');
  return {
    ...recipe,
    nameRules: 'amazon',
    preflight: {
      ...recipe.preflight,
      maxPerProduct: recipe.preflight.maxPerProduct ?? (numbered ? AMAZON_PART_SHOTS : undefined),
    },
  };
}

const MB = 1024 * 1024;

/** What Amazon asks of every product image, its main one and the others alike (docs/export.md). */
const AMAZON_IMAGE = {
  format: { type: 'jpeg', quality: 90 },
  size: { kind: 'long-edge', px: 2000 },
  kinds: ['shot'],
  nameRules: 'amazon',
  preflight: { minLongEdge: 1000, recommendedLongEdge: 1600, maxBytes: 10 * MB, srgb: true },
} satisfies Partial<RecipeInput>;

/**
 * The built-in recipes. The channels' figures and where they come from are in docs/export.md; the
 * choices the channels leave open (JPEG quality, crop or pad for the 4:5 and 9:16 frames) are our guesses.
 */
export const BUILT_IN_RECIPES: readonly Recipe[] = [
  {
    id: 'original',
    name: 'Original',
    format: { type: 'original' },
    size: { kind: 'original' },
    fileTemplate: '{product}-{style}-{n:02}.{ext}',
    folderTemplate: '{recipe}/{product}',
    kinds: ['shot', 'video', 'source'],
  },
  {
    id: 'shopify',
    name: 'Shopify',
    format: { type: 'jpeg', quality: 90 },
    size: { kind: 'exact', width: 2048, height: 2048, fit: 'pad', padColour: '#ffffff' },
    fileTemplate: '{handle}-{n:02}.{ext}',
    preflight: { recommendedLongEdge: 2048, maxBytes: 20 * MB, srgb: true },
  },
  {
    ...AMAZON_IMAGE,
    id: 'amazon-main',
    name: 'Amazon main',
    fileTemplate: '{sku}.MAIN.{ext}',
    shots: 'first',
    preflight: { ...AMAZON_IMAGE.preflight, whiteBackground: { minFill: 0.85 } },
  },
  {
    ...AMAZON_IMAGE,
    id: 'amazon-additional',
    name: 'Amazon additional',
    fileTemplate: '{sku}.PT{n:02}.{ext}',
    shots: 'rest',
    preflight: { ...AMAZON_IMAGE.preflight, maxPerProduct: AMAZON_PART_SHOTS },
  },
  {
    id: 'instagram-feed',
    name: 'Instagram feed',
    format: { type: 'jpeg', quality: 90 },
    size: { kind: 'exact', width: 1080, height: 1350, fit: 'crop' },
    fileTemplate: '{product}-{style}-{n:02}-feed.{ext}',
    kinds: ['shot'],
    preflight: { recommendedLongEdge: 1080, srgb: true },
  },
  {
    id: 'story-reels',
    name: 'Story and Reels',
    format: { type: 'jpeg', quality: 90 },
    size: { kind: 'exact', width: 1080, height: 1920, fit: 'pad', padColour: '#ffffff' },
    fileTemplate: '{product}-{style}-{n:02}-story.{ext}',
    kinds: ['shot', 'video'],
    // Its videos are made 1080 x 1920 at 30 fps with sound, a smaller or wider one over a blurred copy.
    video: { channel: 'instagram-reels' },
    preflight: { recommendedLongEdge: 1920, srgb: true },
  },
  {
    // Amazon's product video: its own upload, apart from the images, so a recipe of its own.
    id: 'amazon-video',
    name: 'Amazon video',
    format: { type: 'original' },
    size: { kind: 'original' },
    fileTemplate: '{product}-{style}-{n:02}-amazon.{ext}',
    kinds: ['video'],
    video: { channel: 'amazon' },
  },
  {
    id: 'web',
    name: 'Web',
    format: { type: 'webp', quality: 82 },
    size: { kind: 'long-edge', px: 1600 },
    fileTemplate: '{product}-{style}-{n:02}.{ext}',
    kinds: ['shot'],
    preflight: { srgb: true },
  },
].map((input) => parseRecipe(input));

/** A built-in recipe by id or name, in any case. */
export function builtInRecipe(idOrName: string): Recipe | undefined {
  const wanted = idOrName.trim().toLowerCase();
  return BUILT_IN_RECIPES.find((recipe) => recipe.id === wanted || recipe.name.toLowerCase() === wanted);
}
