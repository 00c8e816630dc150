// The sheet that says which file is which: one row per file of an export, as CSV (RFC 4180: fields with a
// comma, a quote or a line break quoted, quotes doubled, CRLF between records) and as JSON. Nothing in it
// depends on when the export ran, so an export run again writes the same manifest, byte for byte, and it
// is skipped like any identical file.

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
  jobId: string | null;
  style: string;
  credits: number | null;
  stars: number;
  flag: 'picked' | 'rejected' | null;
}

const COLUMNS: Array<[header: string, value: (row: ManifestRow) => string]> = [
  ['brand', (row) => row.brand],
  ['product', (row) => row.product],
  ['sku', (row) => row.sku],
  // One cell for the list: ` | ` cannot occur in a name Windows takes, so it reads back unambiguously.
  ['source_photos', (row) => row.sourcePhotos.join(' | ')],
  ['recipe', (row) => row.recipe],
  ['path', (row) => row.path],
  ['width', (row) => String(row.width)],
  ['height', (row) => String(row.height)],
  ['bytes', (row) => String(row.bytes)],
  ['sha256', (row) => row.sha256],
  ['job_id', (row) => row.jobId ?? ''],
  ['style', (row) => row.style],
  ['credits', (row) => (row.credits === null ? '' : String(row.credits))],
  ['stars', (row) => String(row.stars)],
  ['flag', (row) => row.flag ?? ''],
];

/** One CSV field, quoted when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function manifestCsv(rows: readonly ManifestRow[]): string {
  const lines = [
    COLUMNS.map(([header]) => header),
    ...rows.map((row) => COLUMNS.map(([, value]) => value(row))),
  ];
  return `${lines.map((fields) => fields.map(csvField).join(',')).join('\r\n')}\r\n`;
}

export function manifestJson(rows: readonly ManifestRow[]): string {
  return `${JSON.stringify({ files: rows }, null, 2)}\n`;
}
