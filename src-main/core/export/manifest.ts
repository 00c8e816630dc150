import { type CsvCell, type CsvOptions, csvText } from '../util/csv.ts';

// The sheet that says which file is which: one row per file of an export, as CSV (the one writer,
// util/csv.ts: RFC 4180, formula cells neutralised, a byte-order mark for Excel when asked) and as JSON.
// Nothing in it depends on when the export ran, so an export run again writes the same manifest, byte for
// byte, and it is skipped like any identical file.

export interface ManifestRow {
  brand: string;
  product: string;
  sku: string;
  sourcePhotos: string[];
  recipe: string;
  /** Relative to the export folder, `/` between folders. */
  path: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  /** Adbatch's id of the job that made it (`j_…`): the statement's `job_id`, so the two join. */
  jobId: string | null;
  style: string;
  /** The result's share of its job's net charge, on the result's first row only (null on the others). */
  credits: number | null;
  stars: number;
  flag: 'picked' | 'rejected' | null;
}

const COLUMNS: Array<[header: string, value: (row: ManifestRow) => CsvCell]> = [
  ['brand', (row) => row.brand],
  ['product', (row) => row.product],
  ['sku', (row) => row.sku],
  // One cell for the list: ` | ` cannot occur in a name Windows takes, so it reads back unambiguously.
  ['source_photos', (row) => row.sourcePhotos.join(' | ')],
  ['recipe', (row) => row.recipe],
  ['path', (row) => row.path],
  ['width', (row) => row.width],
  ['height', (row) => row.height],
  ['bytes', (row) => row.bytes],
  ['sha256', (row) => row.sha256],
  ['job_id', (row) => row.jobId],
  ['style', (row) => row.style],
  ['credits', (row) => row.credits],
  ['stars', (row) => row.stars],
  ['flag', (row) => row.flag],
];

export function manifestCsv(rows: readonly ManifestRow[], options: CsvOptions): string {
  return csvText(
    COLUMNS.map(([header]) => header),
    rows.map((row) => COLUMNS.map(([, value]) => value(row))),
    options,
  );
}

export function manifestJson(rows: readonly ManifestRow[]): string {
  return `${JSON.stringify({ files: rows }, null, 2)}\n`;
}
