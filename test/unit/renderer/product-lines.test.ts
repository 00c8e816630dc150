import { describe, expect, it } from 'vitest';
import type { JobView } from '../../../src-main/shared/models.ts';
import { productLines, tileAspect } from '../../../src-renderer/src/batch/product-lines.ts';
import { jobView as job } from '../../support/job-view.ts';

// What a product's row on the batch page shows of its jobs (issue 31, point 2): an attempt core says a later
// job made good, with nothing to show or decide, is folded under the success; every other job stands.

const later = (view: JobView, change: Partial<JobView>): JobView => ({ ...view, ...change });
const video = { kind: 'video' as const, url: '/files/v', resultId: 7, posterUrl: null };

describe('a product row’s lines', () => {
  it('folds a failed attempt that a later one made good, and only that', () => {
    const shoot = job('shoot', 'done');
    const failed = later(job('video', 'failed', 9), { superseded: true });
    const made = later(job('video', 'done', 9), { results: [video] });
    expect(productLines([shoot, failed, made])).toEqual({ current: [shoot, made], earlier: [failed] });
  });

  it('keeps an attempt that has results, or a decision, though a later one succeeded', () => {
    const earlierVideo = later(job('video', 'done', 9), { superseded: true, results: [video] });
    const inDoubt = later(job('video', 'outcome_unknown', 9), { superseded: true, decisions: ['recheck'] });
    const made = later(job('video', 'done', 9), { results: [{ ...video, url: '/files/w' }] });
    expect(productLines([earlierVideo, inDoubt, made])).toEqual({
      current: [earlierVideo, inDoubt, made],
      earlier: [],
    });
  });

  it('keeps a failure nothing made good yet, with its retry', () => {
    const failed = later(job('shoot', 'failed'), { decisions: ['retry'] });
    expect(productLines([failed])).toEqual({ current: [failed], earlier: [] });
  });
});

describe('a tile’s aspect before its result loads', () => {
  it('is the ratio the results were asked in, the loaded image’s own winning', () => {
    expect(tileAspect('4:5')).toBe('auto 4 / 5');
    expect(tileAspect('16:9')).toBe('auto 16 / 9');
  });

  it('is left to the result where the service chooses it', () => {
    expect(tileAspect(null)).toBeUndefined();
    expect(tileAspect('wide')).toBeUndefined();
  });
});
