// A size in bytes as every message says it: binary megabytes, one decimal under 10 MB, whole above with
// thousands separators ("1.5 MB", "40 MB", "20,480 MB"), and kilobytes under one megabyte ("12 KB"), so a
// limit is never said as "0.0 MB". One formatter for ingest, downloads, export and the CLI.

const KB = 1024;
const MB = 1024 * KB;

export function megabytes(bytes: number): string {
  // A few bytes are 1 KB, not 0: only nothing is said as 0.
  if (bytes < MB) return `${bytes <= 0 ? 0 : Math.max(1, Math.round(bytes / KB))} KB`;
  return `${(bytes / MB).toLocaleString('en-US', { maximumFractionDigits: bytes < 10 * MB ? 1 : 0 })} MB`;
}
