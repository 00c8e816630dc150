import { z } from 'zod';

// A recipe says what one output of an exported result looks like: its format, its size, its metadata,
// where it goes and under which name, and what to check before it is written. Several recipes run in one
// export; each source is decoded once and resized per recipe (render.ts).

const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb')
  .transform((value) => value.toLowerCase());
const pixels = z.number().int().min(16).max(20_000);

export const recipeFormatSchema = z.discriminatedUnion('type', [
  /** The source's own format (JPEG stays JPEG, PNG stays PNG…). */
  z.object({ type: z.literal('original') }),
  z.object({ type: z.literal('jpeg'), quality: z.number().int().min(1).max(100).default(90) }),
  z.object({ type: z.literal('png') }),
  z.object({ type: z.literal('webp'), quality: z.number().int().min(1).max(100).default(82) }),
  z.object({ type: z.literal('avif'), quality: z.number().int().min(1).max(100).default(55) }),
]);
export type RecipeFormat = z.infer<typeof recipeFormatSchema>;

export const recipeSizeSchema = z.discriminatedUnion('kind', [
  /** The source's own pixels. */
  z.object({ kind: z.literal('original') }),
  /** The long edge at `px`, the ratio kept; never enlarged unless asked. */
  z.object({ kind: z.literal('long-edge'), px: pixels, enlarge: z.boolean().default(false) }),
  /**
   * Exactly `width` x `height`: `pad` fits the whole image inside and pads the rest with `padColour`;
   * `crop` covers the frame and crops the overflow (centred); `inside` fits inside without padding, so
   * one side may come out shorter.
   */
  z.object({
    kind: z.literal('exact'),
    width: pixels,
    height: pixels,
    fit: z.enum(['pad', 'crop', 'inside']),
    padColour: colour.default('#ffffff'),
    enlarge: z.boolean().default(true),
  }),
]);
export type RecipeSize = z.infer<typeof recipeSizeSchema>;

export const metadataPolicySchema = z.object({
  /**
   * Copy the source's file unchanged, EXIF, GPS, IPTC, XMP and profile with it: only for the original
   * format at the original size. Off by default: a phone photo's GPS must not leave with a product image.
   * Every other file is rendered sRGB with the sRGB profile attached, and carries only the XMP below.
   */
  keepSource: z.boolean().default(false),
  /** The stars as `xmp:Rating` (a rejected result as -1, as Adobe's tools read it). */
  rating: z.boolean().default(true),
  /** The product's name as `dc:title`. */
  title: z.boolean().default(true),
  /** An AI result marked with IPTC `DigitalSourceType` = trainedAlgorithmicMedia. */
  aiSource: z.boolean().default(true),
});
export type MetadataPolicy = z.infer<typeof metadataPolicySchema>;

export const preflightSchema = z.object({
  /** Pixels the long side should have at least. */
  minLongEdge: z.number().int().positive().optional(),
  /** Bytes a file may take at most. */
  maxBytes: z.number().int().positive().optional(),
  /** The file must be sRGB. */
  srgb: z.boolean().default(true),
  /**
   * A main image on pure white: the frame's edges must be RGB 255, and the product (what is not white)
   * must span at least `minFill` of the frame on its longer side.
   */
  whiteBackground: z.object({ minFill: z.number().min(0).max(1) }).optional(),
});
export type Preflight = z.infer<typeof preflightSchema>;

export const RESULT_KINDS = ['shot', 'video', 'source'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

export const recipeSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a recipe id is lower-case letters, digits and dashes'),
    name: z.string().trim().min(1).max(80),
    format: recipeFormatSchema,
    size: recipeSizeSchema,
    /** What a transparent image is flattened on when its format has no alpha (JPEG). */
    background: colour.default('#ffffff'),
    metadata: metadataPolicySchema.default(metadataPolicySchema.parse({})),
    /** Tokens of names.ts; `.{ext}` is added when the template has no `{ext}`. */
    fileTemplate: z.string().min(1).max(400),
    /** `/` separates folders; empty puts the files at the top of the export folder. */
    folderTemplate: z.string().max(400).default('{recipe}'),
    /** Which of a product's shots this recipe takes: all, the first (a main image), or all but the first. */
    shots: z.enum(['all', 'first', 'rest']).default('all'),
    /** The kinds of result this recipe exports. A video is copied as it is, whatever the recipe. */
    kinds: z.array(z.enum(RESULT_KINDS)).min(1).default(['shot', 'source']),
    preflight: preflightSchema.default(preflightSchema.parse({})),
  })
  .refine(
    (recipe) =>
      !recipe.metadata.keepSource || (recipe.format.type === 'original' && recipe.size.kind === 'original'),
    {
      message: 'the source file is kept as it is only in its original format at its original size',
      path: ['metadata', 'keepSource'],
    },
  );
export type Recipe = z.infer<typeof recipeSchema>;
export type RecipeInput = z.input<typeof recipeSchema>;

export class RecipeError extends Error {
  override name = 'RecipeError';
}

/** A recipe from anything (a saved file, the dialog, the CLI), or a RecipeError saying what is wrong. */
export function parseRecipe(input: unknown): Recipe {
  const parsed = recipeSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const name = (input as { name?: unknown } | null)?.name;
  throw new RecipeError(
    `Recipe ${typeof name === 'string' ? `"${name}" ` : ''}is not valid: ${where}${issue.message}`,
  );
}

const MB = 1024 * 1024;

/** What Amazon asks of every product image, its main one and the others alike (docs/export.md). */
const AMAZON_IMAGE = {
  format: { type: 'jpeg', quality: 90 },
  size: { kind: 'long-edge', px: 2000, enlarge: false },
  kinds: ['shot'],
  preflight: { minLongEdge: 1000, maxBytes: 10 * MB, srgb: true },
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
    preflight: { minLongEdge: 2048, maxBytes: 20 * MB, srgb: true },
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
  },
  {
    id: 'instagram-feed',
    name: 'Instagram feed',
    format: { type: 'jpeg', quality: 90 },
    size: { kind: 'exact', width: 1080, height: 1350, fit: 'crop' },
    fileTemplate: '{product}-{style}-{n:02}-feed.{ext}',
    kinds: ['shot'],
    preflight: { minLongEdge: 1080, srgb: true },
  },
  {
    id: 'story-reels',
    name: 'Story and Reels',
    format: { type: 'jpeg', quality: 90 },
    size: { kind: 'exact', width: 1080, height: 1920, fit: 'pad', padColour: '#ffffff' },
    fileTemplate: '{product}-{style}-{n:02}-story.{ext}',
    kinds: ['shot', 'video'],
    preflight: { minLongEdge: 1920, srgb: true },
  },
  {
    id: 'web',
    name: 'Web',
    format: { type: 'webp', quality: 82 },
    size: { kind: 'long-edge', px: 1600, enlarge: false },
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
