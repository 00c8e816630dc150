import { createHash } from 'node:crypto';
import { loadSharp } from '../util/load-sharp.ts';
import type { PlannedFile } from './plan.ts';
import type { FileOutcome } from './run.ts';

// What an earlier run left under a planned name, so that a resumed or repeated export need not render a
// file again to find it already there. A file is skipped only when the earlier run made it from exactly
// what this run would make it from (its render key) and the bytes under its name are still the ones that
// run placed (size and sha256, read again now): what the bytes-only comparison of place-file.ts concludes
// after a render, known before it. Whatever else (no record, a key that differs, a file changed or gone)
// renders and places as before, so a stranger's file is still never overwritten.

export interface PlacedBefore {
  plannedPath: string;
  renderKey: string;
  /** Where it went: the planned path, or beside it with a suffix. */
  relativePath: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
  warnings: string[];
}

/** What to remember of a finished file for the next run: nothing of a failed one, or one without a key. */
export function placedBeforeOf(outcome: FileOutcome): PlacedBefore | null {
  if (outcome.status === 'failed' || !outcome.renderKey) return null;
  return {
    plannedPath: outcome.planned.relativePath,
    renderKey: outcome.renderKey,
    relativePath: outcome.relativePath,
    sha256: outcome.sha256,
    bytes: outcome.bytes,
    width: outcome.width,
    height: outcome.height,
    warnings: outcome.warnings,
  };
}

/**
 * Bump when our own rendering (render.ts, icc.ts, xmp.ts, the encoders' settings) changes its output for the
 * same inputs: a guess that a constant kept by hand is enough, since sharp's and its libraries' versions are
 * in the key already. A stale key costs a file found "identical" that a fresh render would have made a
 * little differently (the same source, recipe and size), never a file overwritten.
 */
const RENDER_CODE_VERSION = 1;

/** Everything a planned file's bytes follow from: the source's content, the recipe, the size, the item's facts. */
export async function renderKey(file: PlannedFile, sourceSha256: string): Promise<string> {
  const sharp = await loadSharp();
  const { index: _index, relativePath: _path, ...made } = file;
  return createHash('sha256')
    .update(JSON.stringify({ code: RENDER_CODE_VERSION, engine: sharp.versions, source: sourceSha256, made }))
    .digest('hex');
}
