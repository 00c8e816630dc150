import { someNamed } from './counted.ts';

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

/** Why a SKU `upcWithoutItsZero` finds is worth a look: the export's plan and the product sheet say it alike. */
export const DROPPED_ZERO_WHY =
  "A spreadsheet drops a UPC's leading zero, and Amazon finds a listing by its whole code";

/**
 * The UPC an 11-digit SKU most likely is, or null: a spreadsheet reads `036000291452` as a number and
 * drops its leading zero, and Amazon finds a listing by the whole code. GUESS: only when the 12 digits'
 * check digit holds (GS1's), as an unrelated 11-digit code's does one time in ten; it is said, never
 * rewritten, since that one in ten is someone's own SKU.
 */
export function upcWithoutItsZero(identifier: string): string | null {
  if (!/^\d{11}$/.test(identifier)) return null;
  const upc = `0${identifier}`;
  // GS1: from the digit before the check digit leftwards, weights 3, 1, 3, …; the check digit tops the sum up to a ten.
  let sum = 0;
  for (let index = 0; index < 11; index++) sum += Number(upc[10 - index]) * (index % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(upc[11]) ? upc : null;
}

/**
 * The product sheet's word (app and CLI) on the SKUs Amazon's file names cannot hold, said where they are
 * typed, before an Amazon export refuses them; null when every SKU can be held (or is empty).
 */
export function unnamableSkuWords(rows: readonly { name: string; used: { sku: string } }[]): string | null {
  const unnamable = rows.filter((row) => row.used.sku !== '' && amazonIdentifier(row.used.sku) === null);
  if (unnamable.length === 0) return null;
  const named = someNamed(unnamable.map((row) => `${row.name} (“${row.used.sku}”)`));
  return `${unnamable.length} of ${rows.length} products have a SKU Amazon's file names cannot hold (letters and digits only; dashes and spaces are left out): ${named}.`;
}

/**
 * The product sheet's word (app and CLI) on the SKUs that read as a UPC whose leading zero a spreadsheet
 * dropped (`upcWithoutItsZero`), said where they are typed, as an Amazon export's plan says it; null when
 * there are none.
 */
export function shortUpcSkuWords(rows: readonly { name: string; used: { sku: string } }[]): string | null {
  const short = rows.flatMap((row) => {
    const identifier = amazonIdentifier(row.used.sku);
    const upc = identifier === null ? null : upcWithoutItsZero(identifier);
    return upc === null ? [] : [`${row.name} (“${row.used.sku}”, as a UPC ${upc})`];
  });
  if (short.length === 0) return null;
  return `${short.length} of ${rows.length} products have a SKU of 11 digits, one short of a UPC, that reads as one with a 0 before: ${someNamed(short)}. ${DROPPED_ZERO_WHY}: if it is a UPC, type its 12 digits.`;
}
