import { amazonIdentifier, DROPPED_ZERO_WHY, upcWithoutItsZero } from '../../shared/amazon-identifier.ts';
import { someNamed } from '../../shared/counted.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { usesToken } from './names.ts';

// What the plan and a finished export say of Amazon's file names (`nameRules: 'amazon'`): the SKUs written as
// Amazon reads them (shared/amazon-identifier.ts) and shared by several products (numbered per SKU across
// the whole export: plan.ts), and the listings an export leaves without their main image.

/** Whether the recipe's file names lead with a SKU Amazon's bulk upload reads: its files go by that name. */
export function amazonNamed(recipe: Recipe): boolean {
  return recipe.nameRules === 'amazon' && usesToken(recipe.fileTemplate, 'sku');
}

/**
 * The listing a SKU's files belong to: its identifier in capitals, as a file system that ignores case
 * compares the names (`hat001` and `HAT001` are one listing); null for a SKU Amazon cannot hold.
 */
export function amazonListing(sku: string): string | null {
  return amazonIdentifier(sku)?.toUpperCase() ?? null;
}

/**
 * What the plan says of the SKUs its Amazon names were made from, once per export: those written without
 * their dashes or spaces, and those several products share (numbered as one listing's images).
 */
export class AmazonNameNotes {
  private readonly rewritten = new Map<string, string>();
  /** SKUs of 11 digits that read as a UPC once a 0 is put before them: by the SKU, its product and that UPC. */
  private readonly shortUpcs = new Map<string, { product: string; upc: string }>();
  /** By the SKU in capitals: the SKU as first met, and the products (by key) that have it. */
  private readonly products = new Map<string, { identifier: string; sharing: Map<string, string> }>();

  note(item: { sku: string; product: string; batch: string; productKey: string }, identifier: string): void {
    if (item.sku !== identifier) this.rewritten.set(item.sku, identifier);
    const upc = upcWithoutItsZero(identifier);
    if (upc !== null && !this.shortUpcs.has(identifier))
      this.shortUpcs.set(identifier, { product: item.product, upc });
    const key = identifier.toUpperCase();
    let entry = this.products.get(key);
    if (!entry) {
      entry = { identifier, sharing: new Map() };
      this.products.set(key, entry);
    }
    entry.sharing.set(item.productKey, `${item.product} (batch “${item.batch}”)`);
  }

  notices(): Array<{ product: string; message: string }> {
    const notices: Array<{ product: string; message: string }> = [];
    if (this.rewritten.size > 0) {
      const pairs = [...this.rewritten].map(([sku, identifier]) => `${sku} as ${identifier}`);
      notices.push({
        product: '',
        message: `Amazon's file names hold SKUs without dashes or spaces, as Amazon asks: ${someNamed(pairs)}.`,
      });
    }
    if (this.shortUpcs.size > 0) {
      const count = this.shortUpcs.size;
      const pairs = [...this.shortUpcs].map(
        ([sku, { product, upc }]) => `${product} (${sku}, as a UPC ${upc})`,
      );
      notices.push({
        product: '',
        message:
          `${count === 1 ? '1 SKU has' : `${count} SKUs have`} 11 digits, one short of a UPC, and ${count === 1 ? 'reads' : 'read'} as one with a 0 before: ${someNamed(pairs)}. ` +
          `${DROPPED_ZERO_WHY}: if ${count === 1 ? 'it is a UPC' : 'these are UPCs'}, give ${count === 1 ? 'it its' : 'them their'} 12 digits in the product sheet (or adbatch products <batch> --from FILE).`,
      });
    }
    for (const { identifier, sharing } of this.products.values()) {
      if (sharing.size < 2) continue;
      const names = [...sharing.values()];
      notices.push({
        product: names[0]!,
        message: `${identifier} is the SKU of ${sharing.size} products (${someNamed(names)}): Amazon's files number them as one listing's images, its MAIN from the first.`,
      });
    }
    return notices;
  }
}

/** A file of Amazon's main image: `SKU.MAIN.jpg`. */
const MAIN_NAME = /(^|\/)[^/]+\.MAIN\.[^./]+$/;

/**
 * What a finished export says of the listings it leaves without a main image: Amazon "may not display"
 * the other images of a product without its MAIN (Amazon's help, docs/export.md), so a main image held
 * back (not on white, too small) while the others were written is said, once per SKU, not left to find.
 */
export function listingsWithoutMain(
  files: ReadonlyArray<{
    status: 'written' | 'identical' | 'failed';
    planned: { relativePath: string; recipe: Recipe; item: { sku: string } };
  }>,
): string[] {
  const listings = new Map<string, { mainHeld: boolean; mainPlaced: boolean; others: number }>();
  for (const file of files) {
    if (!amazonNamed(file.planned.recipe)) continue;
    const key = amazonListing(file.planned.item.sku);
    if (!key) continue;
    let listing = listings.get(key);
    if (!listing) {
      listing = { mainHeld: false, mainPlaced: false, others: 0 };
      listings.set(key, listing);
    }
    const placed = file.status !== 'failed';
    if (MAIN_NAME.test(file.planned.relativePath)) {
      if (placed) listing.mainPlaced = true;
      else listing.mainHeld = true;
    } else if (placed) listing.others += 1;
  }
  return [...listings]
    .filter(([, listing]) => listing.mainHeld && !listing.mainPlaced && listing.others > 0)
    .map(
      ([key, listing]) =>
        `${key} has no main image in this export (its MAIN was not written): Amazon may not show its ${listing.others === 1 ? 'other image' : `${listing.others} other images`} without one: pick a shot of it on white (the first such pick is its MAIN), or give the listing a main image of your own.`,
    );
}
