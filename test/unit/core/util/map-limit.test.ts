import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../../../src-main/core/util/map-limit.ts';

describe('mapLimit', () => {
  it('runs at most `limit` at once and returns results in the items order', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([30, 5, 20, 1, 10, 2], 3, async (ms, index) => {
      most = Math.max(most, ++running);
      await sleep(ms);
      running--;
      return index * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40, 50]);
    expect(most).toBe(3);
  });

  it('stops starting work after a failure, lets started work settle, then rethrows', async () => {
    const started: number[] = [];
    let settled = 0;
    await expect(
      mapLimit([1, 2, 3, 4, 5, 6], 2, async (item) => {
        started.push(item);
        await sleep(item === 2 ? 1 : 20);
        settled++;
        if (item === 2) throw new Error('two failed');
        return item;
      }),
    ).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
    expect(settled).toBe(2);
  });

  it('copes with no items', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
