import { z } from 'zod';
import { RESULT_KINDS, VIDEO_CHANNELS } from './vocabulary.ts';

// A recipe says what one output of an exported result looks like: its format, its size, its metadata,
// where it goes and under which name, and what to check before it is written. Its schema is the contract's
// (`export:saveRecipe` takes one, `export:recipes` answers them); core/export/recipes.ts parses saved ones
// and holds the built-ins, and core/export/render.ts runs them.

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
  /** The long edge at `px`, the ratio kept (never enlarged unless the recipe allows it: `allowUpscale`). */
  z.object({ kind: z.literal('long-edge'), px: pixels }),
  /**
   * Exactly `width` x `height`: `pad` fits the whole image inside and pads the rest with `padColour`;
   * `crop` covers the frame and crops the overflow (around the subject: a focus point set in Review, else
   * sharp's attention strategy); `inside` fits inside without padding, so one side may come out shorter.
   * A source smaller than the frame makes a smaller frame of the same shape unless the recipe allows
   * upscaling (core/export/geometry.ts).
   */
  z.object({
    kind: z.literal('exact'),
    width: pixels,
    height: pixels,
    fit: z.enum(['pad', 'crop', 'inside']),
    padColour: colour.default('#ffffff'),
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
  /**
   * The stars as `xmp:Rating` (a rejected result as -1, as Adobe's tools read it), and the colour label as
   * `xmp:Label`.
   */
  rating: z.boolean().default(true),
  /** The product's name as `dc:title`. */
  title: z.boolean().default(true),
  /** An AI result marked with IPTC `DigitalSourceType` = trainedAlgorithmicMedia. */
  aiSource: z.boolean().default(true),
});
export type MetadataPolicy = z.infer<typeof metadataPolicySchema>;

export const preflightSchema = z.object({
  /**
   * Pixels of the source the long side must have at least (the channel's minimum): below, a pre-flight
   * error that blocks the file. Counted on the source's pixels, never on enlarged ones.
   */
  minLongEdge: z.number().int().positive().optional(),
  /** Pixels the channel recommends (Amazon's zoom, Shopify's 2048): below, a warning. */
  recommendedLongEdge: z.number().int().positive().optional(),
  /** Bytes a file may take at most. */
  maxBytes: z.number().int().positive().optional(),
  /** The file must be sRGB. */
  srgb: z.boolean().default(true),
  /**
   * A main image on pure white: the frame's edges must be RGB 255, and the product (what is not white)
   * must span at least `minFill` of the frame on its longer side.
   */
  whiteBackground: z.object({ minFill: z.number().min(0).max(1) }).optional(),
  /**
   * Files one product may have in this recipe (Amazon takes PT01 to PT08 beside its MAIN): the later ones
   * are held back with the reason. Where the names follow Amazon's rules, a product is its SKU.
   */
  maxPerProduct: z.number().int().positive().optional(),
});
export type Preflight = z.infer<typeof preflightSchema>;

/**
 * What a recipe makes of a video: a new file to its channel's spec (frame, codec, frame rate, sound; the
 * specs are in core/export/video-channels.ts), the frame's spare room filled with a blurred copy of the
 * video scaled to fill it, or with `padColour`. A recipe without it copies videos as they are.
 */
export const recipeVideoSchema = z.object({
  channel: z.enum(VIDEO_CHANNELS),
  background: z.enum(['blur', 'pad']).default('blur'),
  padColour: colour.default('#000000'),
});
export type RecipeVideo = z.infer<typeof recipeVideoSchema>;

/** What an export takes of a product: its results, and the source photos they were made from. */
export const EXPORT_KINDS = [...RESULT_KINDS, 'source'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const recipeSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a recipe id is lower-case letters, digits and dashes'),
    name: z.string().trim().min(1).max(80),
    format: recipeFormatSchema,
    size: recipeSizeSchema,
    /** Whether the recipe may enlarge a source smaller than its size; a pre-flight warning says so when it does. */
    allowUpscale: z.boolean().default(false),
    /** What a transparent image is flattened on when its format has no alpha (JPEG). */
    background: colour.default('#ffffff'),
    metadata: metadataPolicySchema.default(metadataPolicySchema.parse({})),
    /** Tokens of names.ts; `.{ext}` is added when the template has no `{ext}`. */
    fileTemplate: z.string().min(1).max(400),
    /** `/` separates folders; empty puts the files at the top of the export folder. */
    folderTemplate: z.string().max(400).default('{recipe}'),
    /**
     * Whose rules the names follow beyond the template. `amazon`: the bulk image upload's, which matches a
     * file to its listing by its name alone (core/export/amazon-names.ts): `{sku}` is written without dashes
     * or spaces (a SKU with other characters refuses the export), and `{n}` and the first or other shots
     * count a SKU's results across the whole export, so two batches of one product make one MAIN, never a
     * second one named `(2)`.
     */
    nameRules: z.enum(['amazon']).optional(),
    /** Which of a product's shots this recipe takes: all, the first (a main image), or all but the first. */
    shots: z.enum(['all', 'first', 'rest']).default('all'),
    /** The kinds of result this recipe exports. A video is copied as it is unless `video` says otherwise. */
    kinds: z.array(z.enum(EXPORT_KINDS)).min(1).default(['shot', 'source']),
    /** How the recipe's videos are made for a channel; format and size above are its images'. */
    video: recipeVideoSchema.optional(),
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
