// Amazon's bulk image upload matches a file to its listing by the name alone: the product identifier, a
// four-character variant code and the extension, separated by dots (`B000123456.MAIN.jpg`, `….PT01.jpg`).
// Amazon's help: the identifier is "stripped of any dashes or spaces … Any additional characters (dashes,
// underscores, or spaces) will prevent the file from being processed" (docs/export.md). Shared: the export
// writes SKUs so (core/export/amazon-names.ts) and the product sheet says which SKU cannot be.

/** Dashes (ASCII and Unicode's) and white space: what Amazon asks to be removed from an identifier. */
const REMOVED = /[\s\-\u2010-\u2015\u2212]/gu;
const IDENTIFIER = /^[A-Za-z0-9]+$/;

/** The SKU as Amazon's file names hold it, or null when it holds characters Amazon refuses there. */
export function amazonIdentifier(sku: string): string | null {
  const identifier = sku.replace(REMOVED, '');
  return IDENTIFIER.test(identifier) ? identifier : null;
}
