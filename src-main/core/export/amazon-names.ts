// What the plan says of the SKUs its Amazon file names were made from (`nameRules: 'amazon'`): written as
// Amazon reads them (shared/amazon-identifier.ts), and numbered per SKU across the whole export (plan.ts).

/** Names listed in one notice; the rest are counted. */
const LISTED = 5;

function listed(names: readonly string[]): string {
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more` : '';
  return `${names.slice(0, LISTED).join(', ')}${more}`;
}

/**
 * What the plan says of the SKUs its Amazon names were made from, once per export: those written without
 * their dashes or spaces, and those several products share (numbered as one listing's images).
 */
export class AmazonNameNotes {
  private readonly rewritten = new Map<string, string>();
  /** By the SKU in capitals: the SKU as first met, and the products (by key) that have it. */
  private readonly products = new Map<string, { identifier: string; sharing: Map<string, string> }>();

  note(item: { sku: string; product: string; batch: string; productKey: string }, identifier: string): void {
    if (item.sku !== identifier) this.rewritten.set(item.sku, identifier);
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
        message: `Amazon's file names hold SKUs without dashes or spaces, as Amazon asks: ${listed(pairs)}.`,
      });
    }
    for (const { identifier, sharing } of this.products.values()) {
      if (sharing.size < 2) continue;
      const names = [...sharing.values()];
      notices.push({
        product: names[0]!,
        message: `${identifier} is the SKU of ${sharing.size} products (${listed(names)}): Amazon's files number them as one listing's images, its MAIN from the first.`,
      });
    }
    return notices;
  }
}
