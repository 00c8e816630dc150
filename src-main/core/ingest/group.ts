import { basename, extname } from 'node:path';

// Which loose photos belong together. A folder of product folders needs no help; a flat folder of
// `SKU123_1.jpg, SKU123-2.png, SKU456_1.jpg` is several products, told apart by the file names.

/** The SKU before the last `_` or `-` and a number: `SKU123_1.jpg`, `SKU123-2.png`. */
export const DEFAULT_GROUP_PATTERN = '^(?<sku>.+)[_-]\\d+$';

const natural = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Natural order, so `2.jpg` comes before `10.jpg`. */
export function compareNatural(a: string, b: string): number {
  return natural.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * A pattern from the user, matched against each file name without its extension. The SKU is the group
 * named `sku`, else the first group, else the whole match.
 */
export function parseGroupPattern(text: string): RegExp {
  let pattern: RegExp;
  try {
    pattern = new RegExp(text, 'u');
  } catch (error) {
    throw new Error(`--pattern is not a valid regular expression: ${(error as Error).message}`);
  }
  return pattern;
}

export function skuOf(fileName: string, pattern: RegExp): string | null {
  const stem = basename(fileName, extname(fileName));
  const match = pattern.exec(stem);
  if (!match) return null;
  const sku = match.groups?.sku ?? match[1] ?? match[0];
  return sku.trim() || null;
}

export interface Group<T> {
  /** The SKU shared by the group, or the file's own stem for a file that matched nothing. */
  key: string;
  items: T[];
}

/**
 * Splits a folder's photos into products when their names carry at least two SKUs; otherwise they are one
 * product. A file that matches nothing in a folder that splits is a product of its own (a guess: a lone
 * `mug.jpg` beside `SKU1_1.jpg` is more likely its own product than part of another).
 */
export function groupBySku<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  pattern: RegExp,
): Group<T>[] | null {
  const groups = new Map<string, Group<T>>();
  let matched = 0;
  for (const item of items) {
    const name = nameOf(item);
    const sku = skuOf(name, pattern);
    const key = sku ?? basename(name, extname(name));
    if (sku && !groups.has(key)) matched++;
    const group = groups.get(key) ?? { key, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return matched >= 2 ? [...groups.values()] : null;
}
