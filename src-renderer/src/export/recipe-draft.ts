import type { Recipe, RecipeInput } from '../../../src-main/shared/export-recipe.ts';
import type { VideoChannel } from '../../../src-main/shared/vocabulary.ts';

// The recipe editor's form as plain values (a draft) and back to a recipe: kept apart from the editor so
// that what each control writes into the recipe is tested without a browser.

export type FormatType = Recipe['format']['type'];
export type SizeKind = Recipe['size']['kind'];
export type Fit = 'pad' | 'crop' | 'inside';
/** What the recipe does with videos: leaves them out, copies them as they are, or makes them for a channel. */
export type VideoChoice = 'none' | 'copy' | VideoChannel;
export type VideoBackground = NonNullable<Recipe['video']>['background'];

export interface Draft {
  name: string;
  format: FormatType;
  quality: number;
  size: SizeKind;
  longEdge: number;
  width: number;
  height: number;
  fit: Fit;
  padColour: string;
  /** A source smaller than the size is enlarged (pixels invented): the recipe's `allowUpscale`. */
  allowUpscale: boolean;
  videos: VideoChoice;
  videoBackground: VideoBackground;
  videoPadColour: string;
  keepSource: boolean;
  rating: boolean;
  title: boolean;
  aiSource: boolean;
  fileTemplate: string;
  folderTemplate: string;
  /** The long edge under which the plan warns: the recipe's recommended size. */
  recommendedLongEdge: string;
  /** The megabytes over which a file is refused (a blocking pre-flight error): the recipe's `maxBytes`. */
  maxMegabytes: string;
}

/** What a recipe exports when it does not say (the recipe schema's default, shared/export-recipe.ts). */
const DEFAULT_KINDS: Recipe['kinds'] = ['shot', 'source'];

const MB = 1024 * 1024;

export function draftOf(recipe: Recipe | null): Draft {
  const size = recipe?.size;
  const kinds = recipe?.kinds ?? DEFAULT_KINDS;
  return {
    name: recipe?.name ?? '',
    format: recipe?.format.type ?? 'jpeg',
    quality: recipe && 'quality' in recipe.format ? recipe.format.quality : 90,
    size: size?.kind ?? 'long-edge',
    longEdge: size?.kind === 'long-edge' ? size.px : 2000,
    width: size?.kind === 'exact' ? size.width : 1080,
    height: size?.kind === 'exact' ? size.height : 1080,
    fit: size?.kind === 'exact' ? size.fit : 'pad',
    padColour: size?.kind === 'exact' ? size.padColour : '#ffffff',
    allowUpscale: recipe?.allowUpscale ?? false,
    videos: recipe?.video?.channel ?? (kinds.includes('video') ? 'copy' : 'none'),
    videoBackground: recipe?.video?.background ?? 'blur',
    videoPadColour: recipe?.video?.padColour ?? '#000000',
    keepSource: recipe?.metadata.keepSource ?? false,
    rating: recipe?.metadata.rating ?? true,
    title: recipe?.metadata.title ?? true,
    aiSource: recipe?.metadata.aiSource ?? true,
    fileTemplate: recipe?.fileTemplate ?? '{product}-{n:02}.{ext}',
    folderTemplate: recipe?.folderTemplate ?? '{recipe}',
    recommendedLongEdge: recipe?.preflight.recommendedLongEdge
      ? String(recipe.preflight.recommendedLongEdge)
      : '',
    maxMegabytes: recipe?.preflight.maxBytes ? String(recipe.preflight.maxBytes / MB) : '',
  };
}

export function recipeOf(draft: Draft, id: string, base: Recipe | null): RecipeInput {
  const format =
    draft.format === 'original' || draft.format === 'png'
      ? { type: draft.format }
      : { type: draft.format, quality: draft.quality };
  const size =
    draft.size === 'original'
      ? { kind: 'original' as const }
      : draft.size === 'long-edge'
        ? { kind: 'long-edge' as const, px: draft.longEdge }
        : {
            kind: 'exact' as const,
            width: draft.width,
            height: draft.height,
            fit: draft.fit,
            padColour: draft.padColour,
          };
  const otherKinds = (base?.kinds ?? DEFAULT_KINDS).filter((kind) => kind !== 'video');
  const recommendedLongEdge = Number(draft.recommendedLongEdge);
  const maxMegabytes = Number(draft.maxMegabytes);
  return {
    ...(base ?? {}),
    id,
    name: draft.name.trim(),
    format: format as RecipeInput['format'],
    size,
    allowUpscale: draft.allowUpscale,
    kinds: draft.videos === 'none' ? otherKinds : [...otherKinds, 'video'],
    video:
      draft.videos === 'none' || draft.videos === 'copy'
        ? undefined
        : { channel: draft.videos, background: draft.videoBackground, padColour: draft.videoPadColour },
    metadata: {
      keepSource: draft.keepSource,
      rating: draft.rating,
      title: draft.title,
      aiSource: draft.aiSource,
    },
    fileTemplate: draft.fileTemplate,
    folderTemplate: draft.folderTemplate,
    preflight: {
      ...(base?.preflight ?? {}),
      recommendedLongEdge:
        draft.recommendedLongEdge && recommendedLongEdge > 0 ? Math.round(recommendedLongEdge) : undefined,
      maxBytes: draft.maxMegabytes && maxMegabytes > 0 ? Math.round(maxMegabytes * MB) : undefined,
    },
  };
}
