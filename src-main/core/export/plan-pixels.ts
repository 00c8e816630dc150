import { mapLimit } from '../util/map-limit.ts';
import type { PlannedFile } from './plan.ts';
import type { PreflightCheck } from './plan-checks.ts';
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
  const measured = files.filter((file) => !file.copy && file.recipe.preflight.whiteBackground);
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
