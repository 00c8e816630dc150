import { describe, expect, it } from 'vitest';
import { REVIEW_LABEL_WORDS } from '../../../src-main/shared/words.ts';
import { labelName, toggledLabel } from '../../../src-renderer/src/review/ResultMarks.tsx';

// Lightroom's colour label keys: the same key again takes the label away, from a selection only when every
// result in it has that label already.

describe('a colour label key', () => {
  it('gives the label, or takes it away from results that all have it', () => {
    expect(toggledLabel({ label: 'red' }, [{ label: null }])).toEqual({ label: 'red' });
    expect(toggledLabel({ label: 'red' }, [{ label: 'red' }])).toEqual({ label: null });
    expect(toggledLabel({ label: 'red' }, [{ label: 'red' }, { label: 'blue' }])).toEqual({ label: 'red' });
    expect(toggledLabel({ label: 'green' }, [{ label: 'green' }, { label: 'green' }])).toEqual({
      label: null,
    });
  });

  it('leaves every other change as it is', () => {
    expect(toggledLabel({ stars: 3 }, [{ label: 'red' }])).toEqual({ stars: 3 });
    expect(toggledLabel({ label: null }, [{ label: null }])).toEqual({ label: null });
  });

  it('names the mark by its colour in words', () => {
    expect(labelName('yellow')).toBe(`${REVIEW_LABEL_WORDS.yellow} label`);
  });
});
