import { describe, expect, it } from 'vitest';
import { setAsideLine } from '../../../src-main/cli/set-aside.ts';
import type { ProblemView } from '../../../src-main/shared/models.ts';

const skipped = (file: string, code: 'already_done' | 'in_progress'): ProblemView => ({
  file,
  reason: 'set aside',
  severity: 'warning',
  code,
});

describe('setAsideLine', () => {
  it('says one product and the flag for it', () => {
    expect(setAsideLine([skipped('Mug', 'already_done')])).toBe(
      'Skipped 1 product already shot from these photos with these settings (Mug); --include-done shoots it again.',
    );
  });

  it('names three of thirteen products and counts the rest, in one line', () => {
    const names = Array.from({ length: 13 }, (_, i) => `product-${String(i + 1).padStart(2, '0')}`);
    const line = setAsideLine(names.map((name) => skipped(name, 'already_done')));
    expect(line).toBe(
      'Skipped 13 products already shot from these photos with these settings ' +
        '(product-01, product-02, product-03 and 10 more); --include-done shoots them again.',
    );
    expect(line).not.toContain('\n');
  });

  it('tells products being shot from those already shot', () => {
    expect(
      setAsideLine([
        skipped('Mug', 'already_done'),
        skipped('Cap', 'already_done'),
        skipped('Tote', 'in_progress'),
      ]),
    ).toBe(
      'Skipped 2 products already shot and 1 being shot from these photos with these settings (Mug, Cap, Tote); --include-done shoots them again.',
    );
    expect(setAsideLine([skipped('Tote', 'in_progress')])).toBe(
      'Skipped 1 product being shot from these photos with these settings (Tote); --include-done shoots it again.',
    );
  });
});
