import type { ProductIdentity, SkippedView } from '../../shared/models.ts';
import type { SniffedKind } from './sniff.ts';

export type ProblemCode =
  | 'empty'
  | 'not_an_image'
  | 'unsupported_format'
  | 'svg'
  | 'truncated'
  | 'too_small'
  | 'small'
  /** Far longer than wide or the other way (a banner, a long screenshot): accepted with a warning. */
  | 'odd_shape'
  | 'pixel_limit'
  | 'too_large'
  | 'animated'
  | 'unreadable'
  | 'broken_link'
  | 'outside_link'
  | 'duplicate'
  | 'too_many_photos'
  | 'no_photos'
  | 'unreachable'
  /** A URL whose host is on this computer or the office network, not allowed by name. */
  | 'not_public'
  | 'bad_catalog'
  /** A catalog that is not UTF-8 and names no encoding: read as the likelier legacy code page. */
  | 'catalog_encoding'
  /** A catalog's SKU that Excel shortened to `1.23457E+12`, its last digits lost. */
  | 'short_number'
  | 'missing_input'
  | 'already_done'
  | 'in_progress';

/** Something a person should read: a file or product turned away (`error`) or accepted with a caveat. */
export interface Problem {
  /** The file, folder, URL or product it is about, as the user would recognise it. */
  file: string;
  /** Where a catalog names it, for a catalog's URL: "products.csv, row 12" (a JSON catalog's "item 3"). */
  place?: string;
  reason: string;
  severity: 'error' | 'warning';
  code: ProblemCode;
}

/**
 * A file skipped without a word (system junk, a folder's readme or licence), listed apart so that problems
 * stay worth reading; or a folder Adbatch wrote, or a copy of a file it wrote, never scanned (`adbatchFolder`), said
 * in one line.
 */
export type SkippedFile = SkippedView;

export interface PlannedPhoto {
  /** The original file (display form) or catalog URL. */
  file: string;
  /** The file to send: the original, or a converted copy in the cache. Null for catalog URLs. */
  path: string | null;
  url: string | null;
  width: number | null;
  height: number | null;
  /** sha256 of the original bytes; null for catalog URLs. */
  hash: string | null;
  format: SniffedKind | null;
  /** A small JPEG in the cache for the app; null for catalog URLs. */
  thumbnail: string | null;
  /** Why a converted copy is sent instead of the original; null when the original is sent. */
  converted: string | null;
  /** Where the photo really is, when a link that leaves the dropped folder led to it; null otherwise. */
  realPath: string | null;
}

export interface PlannedProduct {
  name: string;
  /** Relative to the folder it was dropped with, so exports can mirror it; the catalog handle for URLs. */
  path: string;
  /** The folder holding the photos, or the catalog file. */
  sourceDir: string;
  /** Hero first, at most 8. */
  photos: PlannedPhoto[];
  /** What its catalog says of its identity (a folder's product has none: its guesses are export's). */
  identity?: Partial<ProductIdentity>;
}

export interface IngestPlan {
  products: PlannedProduct[];
  problems: Problem[];
  skipped: SkippedFile[];
  /** Folders of photos inside another folder of photos (`linen-shirt/detail`), and what the scan made of them. */
  nested: NestedFolder[];
  /** Products whose every photo was turned away, with the reasons (each file's is among the problems too). */
  dropped: DroppedProduct[];
}

export interface NestedFolder {
  /** Relative to the dropped folder, as products' paths are. */
  folder: string;
  /** The folder above it that holds photos too. */
  parent: string;
  /** Its photos went into the parent's product (`subfolders: 'parent'`), or it is a product of its own. */
  merged: boolean;
}

export interface DroppedProduct {
  name: string;
  folder: string;
  /** The distinct reasons its photos were turned away. */
  reasons: string[];
}
