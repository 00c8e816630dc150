import { megabytes } from '../../shared/byte-words.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { error, type PreflightCheck, warning } from './plan-checks.ts';

// The checks of a recipe on a file's bytes, made in memory before the file is placed (run.ts): its size
// against the channel's limit (an error: the channel refuses it) and its colour space (a warning). The
// sizes, the path and the white background are checked in the plan (plan-checks.ts).

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

export function fileChecks(recipe: Recipe, facts: FileFacts): PreflightCheck[] {
  const checks: PreflightCheck[] = [];
  const { maxBytes, srgb } = recipe.preflight;
  if (maxBytes !== undefined && facts.bytes > maxBytes) {
    checks.push(
      error(
        'too_many_bytes',
        `${megabytes(facts.bytes)}; ${recipe.name} takes at most ${megabytes(maxBytes)}.`,
      ),
    );
  }
  if (srgb && facts.space !== null) {
    if (facts.space !== 'srgb') {
      checks.push(
        warning(
          'not_srgb',
          `The file is ${facts.space}, not sRGB: its colours will shift where it is shown.`,
        ),
      );
    } else if (facts.icc && !isSrgbProfile(facts.icc)) {
      checks.push(
        warning(
          'not_srgb',
          'The file carries a colour profile that is not sRGB: its colours will shift where it is shown.',
        ),
      );
    }
  }
  return checks;
}
