import { describe, expect, it } from 'vitest';
import { typedCredits } from '../../../src-renderer/src/components/CreditsForm.tsx';

// Caps and allowances typed by the user: whole credits, empty for none, anything else refused in words.

describe('typedCredits', () => {
  const cap = { what: 'A cap', min: 1, empty: 'no cap' };
  const allowance = { what: 'An allowance', min: 0, empty: 'none' };

  it('reads whole credits, and empty as none', () => {
    expect(typedCredits(' 2000 ', cap)).toEqual({ value: 2000 });
    expect(typedCredits('', cap)).toEqual({ value: null });
    expect(typedCredits('0', allowance)).toEqual({ value: 0 });
  });

  it('refuses fractions, words and amounts under the least, saying what is wanted', () => {
    expect(typedCredits('0', cap)).toEqual({
      error: 'A cap is a whole number of credits, 1 or more; leave it empty for no cap.',
    });
    expect(typedCredits('12.5', allowance)).toEqual({
      error: 'An allowance is a whole number of credits; leave it empty for none.',
    });
    expect(typedCredits('ten', cap)).toHaveProperty('error');
    expect(typedCredits('-3', allowance)).toHaveProperty('error');
  });
});
