/** A noun for a count: singular for exactly one (`1 product`, `0 warnings`), for the CLI and the app alike. */
export function noun(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

/** A count with its noun: `1 product`, `0 warnings`, `2 photos`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${noun(count, singular, plural)}`;
}

/** The first `shown` names, the rest counted: "hat, tote and 3 more" (`separator` between names). */
export function someNamed(names: readonly string[], shown = 5, separator = ', '): string {
  const more = names.length > shown ? ` and ${names.length - shown} more` : '';
  return `${names.slice(0, shown).join(separator)}${more}`;
}
