import type { ExportKind } from '../../shared/export-recipe.ts';
import type { ReviewLabel } from '../../shared/vocabulary.ts';

/**
 * One result that may go out: a shot, a video or a source photo, with what names and the manifest say
 * about it. The caller (the export handler) reads these from the queue and the review decisions, in the
 * order they are to be numbered: products in batch order, a product's results in shot order.
 */
export interface ExportItem {
  /** Stable and unique within an export (the asset's id): what keeps the plan deterministic. */
  key: string;
  kind: ExportKind;
  /** Absolute path of the file on disk. */
  file: string;
  /** Groups a product's results for `{n}` and for a recipe's first or other shots. */
  productKey: string;
  brand: string;
  product: string;
  sku: string;
  handle: string;
  /** The product's title where it is sold (its name when none was given): core/products/identity.ts. */
  title: string;
  /** The product's image alt text, '' when none was given. */
  alt: string;
  style: string;
  /** The shot's number in its shoot, from 1 (a source photo's number among its product's photos). */
  shot: number;
  stars: number;
  flag: 'picked' | 'rejected' | null;
  /** Its colour label from Review (none on a source photo). */
  label?: ReviewLabel | null;
  batch: string;
  jobId: string | null;
  credits: number | null;
  /** The product photos the result was made from (file names or URLs). */
  sourcePhotos: string[];
  /** Made by the service's model: marked as such in the file's XMP. */
  aiGenerated: boolean;
  /**
   * Where a crop centres, as fractions of the width and height from the top left: the focus point the
   * designer set in Review; absent, crops find the subject themselves (render.ts).
   */
  focus?: { x: number; y: number } | null;
}
