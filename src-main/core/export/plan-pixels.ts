import type { PreflightWarning } from '../../shared/vocabulary.ts';
import { mapLimit } from '../util/map-limit.ts';
import type { PlannedFile } from './plan.ts';
import { blockingReasons, type PreflightCheck } from './plan-checks.ts';
import { checkedPixels, decodeSource } from './render.ts';

// The plan's look at the pixels: the files whose recipe checks the white background (a main image) are
// rendered in memory, as the run will render them, and measured, so that "not pure white" and "the product
// is too small in the frame" are said before anything is written, not after. Only those files: a main
// image is one per product, and nothing is encoded. A source that cannot be decoded says nothing here; the
// run fails it with the reason.

/** Sources decoded at a time: each holds its pixels; the plan answers while the app stays responsive. */
const AT_A_TIME = 2;

/** Each planned file's checks of its pixels, by its index in the plan (none for most files). */
export async function pixelChecksOf(files: readonly PlannedFile[]): Promise<Map<number, PreflightCheck[]>> {
  const measured = files.filter(measuredFile);
  const checks = new Map<number, PreflightCheck[]>();
  await mapLimit(measured, AT_A_TIME, async (file) => {
    try {
      const { checks: found } = await checkedPixels(await decodeSource(file.item.file), file);
      checks.set(file.index, found);
    } catch {
      // Unreadable: the run says why.
    }
  });
  return checks;
}

/** Whether the pixels are measured for this file: a main image rendered, not a source copied as it is. */
const measuredFile = (file: PlannedFile) => !file.copy && file.recipe.preflight.whiteBackground !== undefined;

/**
 * Each planned file's checks as an export starts, to refuse one that would write nothing: its sizes' and
 * paths', and its pixels' only where they can decide it, when nothing but main images would be written
 * otherwise (an export that once passed that refusal wrote no main image and said "Nothing exported"), or
 * when the refusal's words must name every warning to accept (they named the size's alone, and accepting
 * it wrote no main image either). Otherwise a file is written whatever the pixels say: the run checks them.
 */
export async function startChecksOf(
  files: readonly PlannedFile[],
  accepted: readonly PreflightWarning[],
): Promise<(readonly PreflightCheck[])[]> {
  const written = files.filter((file) => blockingReasons(file.checks, accepted).length === 0);
  if (written.some((file) => !measuredFile(file))) return files.map((file) => file.checks);
  const measured = await pixelChecksOf(files);
  return files.map((file) => [...file.checks, ...(measured.get(file.index) ?? [])]);
}
