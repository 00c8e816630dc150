// Two products may not share a name (case aside): the second `Shirt` becomes `Shirt (2)`, the third
// `Shirt (3)`. A catalog can give one title to thousands of handles, so each base name remembers the next
// suffix to try instead of trying ` (2)`, ` (3)`… again from the start: naming stays linear in the rows.

/**
 * A namer that hands out the first free spelling of each name: the name itself, then ` (2)`, ` (3)`…
 * `taken` holds the lowercased names already given (a caller may pass its own, to see how it is asked).
 */
export function uniqueNamer(taken: Set<string> = new Set()): (name: string) => string {
  /** Per lowercased base: every ` (n)` below this was taken when last looked, and names are never freed. */
  const nextSuffix = new Map<string, number>();
  return (base) => {
    const key = base.toLowerCase();
    let name = base;
    if (taken.has(key)) {
      let n = nextSuffix.get(key) ?? 2;
      while (taken.has(`${key} (${n})`)) n++;
      name = `${base} (${n})`;
      nextSuffix.set(key, n + 1);
    }
    taken.add(name.toLowerCase());
    return name;
  };
}
