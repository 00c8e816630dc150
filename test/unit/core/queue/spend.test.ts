import { describe, expect, it } from 'vitest';
import { balanceLeft, balanceWords } from '../../../../src-main/core/queue/spend.ts';
import {
  newBatch,
  products,
  SHOOT_PRICE,
  storePerTest,
  submitAndAccept,
  VIDEO_PRICE,
} from './store-fixtures.ts';

// The balance as a spending decision knows it (spend.ts), on a real SQLite file: the service's figure, less
// what the key's jobs will take that the figure cannot count.

const ctx = storePerTest();

describe('balanceLeft', () => {
  it("takes off what the key's jobs will still be charged: waiting in a running batch, being sent, sent since the mark", () => {
    const batch = ctx.store.createBatch(newBatch({ products: products(2) }));
    // Another key's jobs are another balance.
    ctx.store.createBatch(newBatch({ keyId: 'key-b', products: products(1, '/other') }));
    const [first, second] = ctx.store.jobs.ofBatch(batch.id).filter((job) => job.kind === 'shoot');
    // Sent before the mark: the balance asked after it has it charged already.
    submitAndAccept(ctx, first!.id);
    ctx.clock.now += 1_000;
    const mark = ctx.store.jobs.mark();
    const left = () => balanceLeft(ctx.store, { balance: 1_000, keyId: 'key-a', mark });
    // The second shoot and both videos wait their turn.
    expect(left()).toBe(1_000 - SHOOT_PRICE - 2 * VIDEO_PRICE);
    // Being sent, then sent since the mark: the service may have answered before it charged them.
    ctx.clock.now += 1_000;
    ctx.store.jobs.beginSubmit(second!.id, {});
    expect(left()).toBe(1_000 - SHOOT_PRICE - 2 * VIDEO_PRICE);
    submitAndAccept(ctx, ctx.store.jobs.ofBatch(batch.id).find((job) => job.kind === 'video')!.id);
    expect(left()).toBe(1_000 - SHOOT_PRICE - 2 * VIDEO_PRICE);
    // A paused batch's waiting jobs go only at a person's word: not counted. What was sent still is.
    ctx.store.batches.pause(batch.id);
    const waiting = ctx.store.jobs.ofBatch(batch.id).filter((job) => job.state === 'waiting');
    expect(waiting.map((job) => job.kind)).toEqual(['video']);
    expect(left()).toBe(1_000 - SHOOT_PRICE - VIDEO_PRICE);
  });
});

describe('balanceWords', () => {
  it('says the balance, and what of it jobs not yet charged will take', () => {
    expect(balanceWords(10, 10)).toBe('the balance is 10 credits');
    expect(balanceWords(1, 1)).toBe('the balance is 1 credit');
    expect(balanceWords(10, 2)).toBe(
      'the balance is 10 credits, of which 8 are promised to jobs not yet charged',
    );
    expect(balanceWords(1, 0)).toBe(
      'the balance is 1 credit, of which 1 is promised to jobs not yet charged',
    );
    expect(balanceWords(10, -4)).toBe(
      'the balance is 10 credits, and jobs not yet charged will take 14 credits',
    );
  });
});
