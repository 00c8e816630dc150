import { someNamed } from '../../shared/counted.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import type { ExportItem } from './export-item.ts';
import type { TextToken } from './names.ts';

// A recipe whose names need a product's field (Amazon's `{sku}.MAIN.jpg`) and a product without it: a
// blocking error of the plan, found before anything is written, naming the products and where to give them
// the field. Never a file named `_.MAIN.jpg` (issue 29): such a product's files for that recipe are left
// out of the plan, and an export with any of them does not start. The same holds for a field a channel
// cannot read in a name: a SKU Amazon's bulk upload would refuse (amazon-names.ts).

/** The name tokens that are a product's identity, and how the error names each field. */
const IDENTITY_TOKENS: Partial<Record<TextToken, string>> = {
  sku: 'SKU',
  handle: 'handle',
  title: 'title',
  brand: 'brand',
};

/** Products listed by name in one error; the rest are counted. */
const NAMED = 10;

export interface MissingField {
  recipe: string;
  token: TextToken;
  /** `missing`: the products have none; `unusable`: theirs holds characters the recipe's channel refuses. */
  reason: 'missing' | 'unusable';
  /** The products that lack it, by name (with the value it has when unusable), in plan order, each once. */
  products: string[];
}

export function isIdentityToken(token: TextToken): boolean {
  return IDENTITY_TOKENS[token] !== undefined;
}

/** Gathers, recipe by recipe, the products an identity token is empty for. */
export class MissingFields {
  private readonly found = new Map<string, MissingField & { keys: Set<string> }>();

  /** `unusable`: the value the product has, which the recipe's channel refuses; absent, it has none. */
  note(recipe: Recipe, item: ExportItem, token: TextToken, unusable?: string): void {
    const reason: MissingField['reason'] = unusable === undefined ? 'missing' : 'unusable';
    const key = `${recipe.id}\u0000${token}\u0000${reason}`;
    let entry = this.found.get(key);
    if (!entry) {
      entry = { recipe: recipe.name, token, reason, products: [], keys: new Set() };
      this.found.set(key, entry);
    }
    if (entry.keys.has(item.productKey)) return;
    entry.keys.add(item.productKey);
    entry.products.push(unusable === undefined ? item.product : `${item.product} (“${unusable}”)`);
  }

  list(): MissingField[] {
    return [...this.found.values()].map(({ keys: _keys, ...field }) => field);
  }
}

/** The error in words: which recipe needs what, which products lack it, and where to give it to them. */
export function missingFieldMessage(missing: MissingField): string {
  const field = IDENTITY_TOKENS[missing.token] ?? missing.token;
  const count = missing.products.length;
  const named = someNamed(missing.products, NAMED);
  const where = 'in the product sheet (or adbatch products <batch> --from FILE)';
  if (missing.reason === 'unusable') {
    return (
      `${missing.recipe} names files as Amazon's bulk image upload reads them, {${missing.token}} in letters and digits only (dashes and spaces are left out), ` +
      `and ${count === 1 ? "1 product's" : `${count} products'`} ${field} ${count === 1 ? 'has' : 'have'} other characters, which Amazon would not take: ${named}. ` +
      `Give ${count === 1 ? 'it' : 'them'} the ASIN, UPC or EAN (or a ${field} of letters and digits) ${where}.`
    );
  }
  return (
    `${missing.recipe} names files with {${missing.token}}, and ${count === 1 ? '1 product has' : `${count} products have`} no ${field}: ` +
    `${named}. Give ${count === 1 ? 'it one' : 'them one'} ${where}.`
  );
}
