/** A count with its noun, singular for exactly one: `1 product`, `0 warnings`, `2 photos`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
