/** A noun for a count: singular for exactly one (`1 product`, `0 warnings`), for the CLI and the app alike. */
export function noun(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

/** A count with its noun: `1 product`, `0 warnings`, `2 photos`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${noun(count, singular, plural)}`;
}
