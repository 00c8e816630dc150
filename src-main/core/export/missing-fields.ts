import type { Recipe } from '../../shared/export-recipe.ts';
import type { ExportItem } from './export-item.ts';
import type { TextToken } from './names.ts';

// A recipe whose names need a product's field (Amazon's `{sku}.MAIN.jpg`) and a product without it: a
// blocking error of the plan, found before anything is written, naming the products and where to give them
// the field. Never a file named `_.MAIN.jpg` (issue 29): such a product's files for that recipe are left
// out of the plan, and an export with any of them does not start.

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
  /** The products that lack it, by name, in plan order, each once. */
  products: string[];
}

export function isIdentityToken(token: TextToken): boolean {
  return IDENTITY_TOKENS[token] !== undefined;
}

/** Gathers, recipe by recipe, the products an identity token is empty for. */
export class MissingFields {
  private readonly found = new Map<string, MissingField & { keys: Set<string> }>();

  note(recipe: Recipe, item: ExportItem, token: TextToken): void {
    const key = `${recipe.id}\u0000${token}`;
    let entry = this.found.get(key);
    if (!entry) {
      entry = { recipe: recipe.name, token, products: [], keys: new Set() };
      this.found.set(key, entry);
    }
    if (entry.keys.has(item.productKey)) return;
    entry.keys.add(item.productKey);
    entry.products.push(item.product);
  }

  list(): MissingField[] {
    return [...this.found.values()].map(({ recipe, token, products }) => ({ recipe, token, products }));
  }
}

/** The error in words: which recipe needs what, which products lack it, and where to give it to them. */
export function missingFieldMessage(missing: MissingField): string {
  const field = IDENTITY_TOKENS[missing.token] ?? missing.token;
  const count = missing.products.length;
  const named = missing.products.slice(0, NAMED).join(', ');
  const more = count > NAMED ? ` and ${count - NAMED} more` : '';
  return (
    `${missing.recipe} names files with {${missing.token}}, and ${count === 1 ? '1 product has' : `${count} products have`} no ${field}: ` +
    `${named}${more}. Give ${count === 1 ? 'it one' : 'them one'} in the product sheet (or adbatch products <batch> --from FILE).`
  );
}
