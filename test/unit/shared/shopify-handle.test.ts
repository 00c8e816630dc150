import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleOf } from '../../../src-main/core/products/identity.ts';
import { isShopifyHandle, unusableHandleWords } from '../../../src-main/shared/shopify-handle.ts';
import { check, hostileText } from '../../support/fuzz.ts';

// A Shopify handle as the import file and the product sheet judge it: lower-case letters (or a script
// without case) and digits, single dashes between words; every handle Adbatch makes from a name is one.

describe('Shopify handles', () => {
  it('takes lower-case words joined by dashes, and refuses capitals, spaces and other marks', () => {
    for (const handle of ['wool-hat', 'tote', 'cap-2', '日本-茶', 'café'])
      expect(isShopifyHandle(handle), handle).toBe(true);
    for (const handle of ['Wool Hat', 'wool hat', 'wool_hat', 'wool--hat', '-hat', 'hat/2', "men's"]) {
      expect(isShopifyHandle(handle), handle).toBe(false);
    }
  });

  it('holds for every handle made from a name, whatever the name', () => {
    check(
      fc.property(hostileText(40), (name) => {
        const handle = handleOf(name);
        expect(handle === '' || isShopifyHandle(handle), JSON.stringify([name, handle])).toBe(true);
      }),
    );
  });

  it('says in the sheet which typed handles Shopify would not take', () => {
    const row = (name: string, handle: string) => ({ name, used: { handle } });
    expect(unusableHandleWords([row('hat', 'wool-hat')])).toBeNull();
    expect(unusableHandleWords([row('hat', 'Wool Hat'), row('tote', 'tote')])).toBe(
      '1 of 2 products have a handle Shopify does not take (lower-case letters and digits, dashes between words): hat (“Wool Hat”).',
    );
  });
});
