import type { ExportKind, Recipe } from '../../shared/export-recipe.ts';
import { type PreflightError, type PreflightWarning, QUALITIES } from '../../shared/vocabulary.ts';
import { PREFLIGHT_WORDS, QUALITY_WORDS } from '../../shared/words.ts';
import { QUALITY_LONG_SIDE } from '../api/guesses.ts';
import { type Dimensions, type Framing, sourceLongEdge } from './geometry.ts';

// The pre-flight: what is checked of a file before it is written, as checks with a kind. The plan knows
// the sizes, the enlargement and the path (sizeChecks, pathCheck); the pixels rendered in memory say
// whether the background is white and how much the product fills (pixelChecks, plan-pixels.ts); the
// encoded bytes say their size and colour space (preflight.ts), still before the file is placed. An
// error blocks its file with the reason; a warning blocks it too unless the export accepts its kind.

export type PreflightKind = PreflightError | PreflightWarning;

export interface PreflightCheck {
  kind: PreflightKind;
  severity: 'error' | 'warning';
  message: string;
}

/** Windows' MAX_PATH: a whole path (drive, folders, name) stays under it. */
export const MAX_WINDOWS_PATH = 260;

export function error(kind: PreflightError, message: string): PreflightCheck {
  return { kind, severity: 'error', message };
}

export function warning(kind: PreflightWarning, message: string): PreflightCheck {
  return { kind, severity: 'warning', message };
}

/** The quality whose shots would have had `needed` px on the long side, in the app's words, if any. */
function enoughQuality(needed: number): string | null {
  const quality = QUALITIES.find((one) => QUALITY_LONG_SIDE[one] >= needed);
  if (!quality) return null;
  const word = QUALITY_WORDS[quality];
  const size = `${QUALITY_LONG_SIDE[quality] / 1024}K`;
  return word.includes(size) ? word : `${word} (${size})`;
}

/** Where a shot's output falls short of its recipe's sizes: what it wants, and the quality that reaches it. */
export interface SizeShortfall {
  /** Under the channel's minimum (an error) or its recommendation (a warning). */
  severity: 'error' | 'warning';
  /** The long side the output has, counted in the source's pixels. */
  longEdge: number;
  /** The long side the recipe wants. */
  wanted: number;
  /** The shot quality whose long side would have been enough, in the app's words; null: none is. */
  quality: string | null;
}

/**
 * The one measure of "too small" shared by the pre-flight (sizeChecks) and New batch's advice before a batch
 * (quality-advice.ts): an output counted on the source's pixels against the recipe's minimum, then its
 * recommendation; null when it reaches both.
 */
export function sizeShortfall(recipe: Recipe, source: Dimensions, framing: Framing): SizeShortfall | null {
  const { minLongEdge, recommendedLongEdge } = recipe.preflight;
  const longEdge = sourceLongEdge(framing);
  const sourceLong = Math.max(source.width, source.height);
  const short = (severity: SizeShortfall['severity'], wanted: number): SizeShortfall => ({
    severity,
    longEdge,
    wanted,
    quality: enoughQuality(Math.ceil((sourceLong * wanted) / longEdge)),
  });
  if (minLongEdge !== undefined && longEdge < minLongEdge) return short('error', minLongEdge);
  if (recommendedLongEdge !== undefined && longEdge < recommendedLongEdge) {
    return short('warning', recommendedLongEdge);
  }
  return null;
}

/**
 * The size checks of one output, counted on the source's pixels (an enlarged frame passes nothing): under
 * the channel's minimum is an error, under its recommendation a warning that names the shot quality that
 * would have been enough; an enlargement the recipe allowed is a warning.
 */
export function sizeChecks(
  recipe: Recipe,
  kind: ExportKind,
  source: Dimensions,
  framing: Framing,
): PreflightCheck[] {
  if (kind === 'video') return [];
  const checks: PreflightCheck[] = [];
  const short = sizeShortfall(recipe, source, framing);
  if (short) {
    // Only a shot can be made again at another quality: a source photo's hint would mislead.
    const hint = kind === 'shot' && short.quality ? `: choose ${short.quality}` : '';
    const result = `${short.longEdge} px of the result on the long side; ${recipe.name}`;
    checks.push(
      short.severity === 'error'
        ? error('too_small', `${result} needs at least ${short.wanted} px${hint}.`)
        : warning('below_recommended', `${result} wants ${short.wanted} px${hint}.`),
    );
  }
  if (framing.scale > 1) {
    checks.push(
      warning(
        'upscaled',
        `Enlarged ${framing.scale.toFixed(2)} x from ${source.width} x ${source.height}: ${recipe.name} allows upscaling, the extra pixels are invented.`,
      ),
    );
  }
  return checks;
}

/** The characters of a whole path: the export folder, a separator, the relative path. */
export function pathLength(destination: string, relativePath: string): number {
  return destination.replace(/[/\\]+$/, '').length + 1 + relativePath.length;
}

/** A whole path that Windows cannot open (260 characters with the folder it goes into). */
export function pathCheck(destination: string, relativePath: string): PreflightCheck | null {
  const length = pathLength(destination, relativePath);
  return length < MAX_WINDOWS_PATH
    ? null
    : error(
        'path_too_long',
        `The whole path is ${length} characters; Windows opens at most ${MAX_WINDOWS_PATH - 1}: choose a folder nearer the top or a shorter name template.`,
      );
}

/** The white-background checks of a main image, from its rendered pixels (render.ts measures them). */
export function pixelChecks(recipe: Recipe, measured: { edgeMin: number; fill: number }): PreflightCheck[] {
  const white = recipe.preflight.whiteBackground;
  if (!white) return [];
  const checks: PreflightCheck[] = [];
  if (measured.edgeMin < 255) {
    checks.push(
      warning(
        'not_white',
        `The background is not pure white (RGB 255) at the edges: the darkest edge value is ${measured.edgeMin}.`,
      ),
    );
  }
  if (measured.fill < white.minFill) {
    checks.push(
      warning(
        'low_fill',
        `The product spans ${Math.round(measured.fill * 100)} % of the frame; ${recipe.name} asks for at least ${Math.round(white.minFill * 100)} %.`,
      ),
    );
  }
  return checks;
}

/**
 * A file past the recipe's files per product (Amazon's PT08): an error that holds it back. `product` names
 * whose files are counted (the SKU where the names follow Amazon's rules).
 */
export function countCheck(recipe: Recipe, n: number, product: string): PreflightCheck | null {
  const most = recipe.preflight.maxPerProduct;
  if (most === undefined || n <= most) return null;
  return error(
    'too_many_files',
    `This is file ${n} of ${product} for ${recipe.name}, which takes at most ${most} a product: pick fewer, or export the rest with another recipe.`,
  );
}

/** A file whose channel reads it by a name another file of the export already has: an error that holds it back. */
export function sameNameCheck(recipe: Recipe, wanted: string): PreflightCheck {
  return error(
    'too_many_files',
    `Another file of this export is named ${wanted}, and ${recipe.name}'s channel reads a file by its name alone: number them ({n}) or take one shot a product.`,
  );
}

/** Why a file is not written: its errors, and its warnings of kinds the export did not accept; [] to write it. */
export function blockingReasons(
  checks: readonly PreflightCheck[],
  accepted: ReadonlySet<PreflightWarning> | readonly PreflightWarning[],
): string[] {
  const acceptedKinds = new Set<PreflightKind>(accepted);
  return checks
    .filter((check) => check.severity === 'error' || !acceptedKinds.has(check.kind))
    .map((check) =>
      check.severity === 'error'
        ? check.message
        : `${check.message} (not accepted: ${PREFLIGHT_WORDS[check.kind]})`,
    );
}
