import type { Recipe } from '../../shared/export-recipe.ts';

// The checks of a recipe on a file about to be written, as warnings: the file is still written (the
// designer may know better), but the warning goes with it to the dialog, the CLI and the report. The
// white background is measured on the pixels (render.ts); these read the file's size and header.

export interface FileFacts {
  width: number;
  height: number;
  bytes: number;
  /** sharp's `space` of the file as written ('srgb', 'cmyk', 'b-w'…); null for a video. */
  space: string | null;
  /** The embedded ICC profile, if any. */
  icc: Buffer | null;
}

const SRGB_ASCII = Buffer.from('sRGB', 'latin1');
const SRGB_UTF16 = Buffer.from('sRGB', 'utf16le').swap16();

/**
 * Whether an ICC profile is an sRGB one. A guess that reads the name, not the primaries: sRGB profiles
 * (ICC v2 `desc`, v4 `mluc`, ours from sharp) name themselves sRGB; Display P3 and Adobe RGB do not.
 */
export function isSrgbProfile(icc: Buffer): boolean {
  return icc.includes(SRGB_ASCII) || icc.includes(SRGB_UTF16);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An image's long edge below the recipe's minimum, in words; known from its size alone (so the plan says it too). */
export function longEdgeWarning(recipe: Recipe, size: { width: number; height: number }): string | null {
  const { minLongEdge } = recipe.preflight;
  const longEdge = Math.max(size.width, size.height);
  return minLongEdge !== undefined && longEdge < minLongEdge
    ? `${longEdge} px on the long side; ${recipe.name} wants at least ${minLongEdge} px.`
    : null;
}

export function preflightWarnings(recipe: Recipe, facts: FileFacts): string[] {
  const warnings: string[] = [];
  const { maxBytes, srgb } = recipe.preflight;
  const isImage = facts.space !== null;
  const tooSmall = isImage ? longEdgeWarning(recipe, facts) : null;
  if (tooSmall) warnings.push(tooSmall);
  if (maxBytes !== undefined && facts.bytes > maxBytes) {
    warnings.push(`${megabytes(facts.bytes)}; ${recipe.name} takes at most ${megabytes(maxBytes)}.`);
  }
  if (srgb && isImage) {
    if (facts.space !== 'srgb')
      warnings.push(`The file is ${facts.space}, not sRGB: its colours will shift where it is shown.`);
    else if (facts.icc && !isSrgbProfile(facts.icc)) {
      warnings.push(
        'The file carries a colour profile that is not sRGB: its colours will shift where it is shown.',
      );
    }
  }
  return warnings;
}
