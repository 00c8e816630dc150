import { describe, expect, it } from 'vitest';
import type { JobView, ProductProgressView } from '../../../src-main/shared/models.ts';
import {
  chargedWords,
  pauseWords,
  progressWords,
} from '../../../src-renderer/src/screens/batch/batch-words.ts';
import { jobView as job } from '../../support/job-view.ts';

// The batch page's sentences from a batch's products and jobs: products shot and videos made, what was
// charged, and what Pause can still hold back. (A job's state in words: test/unit/shared/words.test.ts.)

function product(name: string, jobs: JobView[]): ProductProgressView {
  return { id: name, name, heroUrl: null, jobs };
}

describe('the batch page in a designer’s words', () => {
  it('counts products shot and videos made, not jobs', () => {
    const items = [
      product('hat', [job('shoot', 'done'), job('video', 'done', 40)]),
      product('cap', [job('shoot', 'done'), job('video', 'running', 40)]),
      product('mug', [job('shoot', 'running'), job('video', 'waiting', 40)]),
    ];
    expect(progressWords({ items })).toBe('2 of 3 products shot; 3 videos: 1 made, 2 under way');
    expect(progressWords({ items: [product('hat', [job('shoot', 'done')])] })).toBe('1 of 1 product shot');
  });

  it('never counts a failed video as made, even when it was made again after', () => {
    const failedAll = ['hat', 'cap'].map((name) =>
      product(name, [job('shoot', 'done'), job('video', 'failed', 34)]),
    );
    expect(progressWords({ items: failedAll })).toBe('2 of 2 products shot; 2 videos: 0 made, 2 failed');
    const madeAgain = [
      product('hat', [job('shoot', 'done'), job('video', 'failed', 34), job('video', 'done', 34)]),
    ];
    expect(progressWords({ items: madeAgain })).toBe('1 of 1 product shot; 2 videos: 1 made, 1 failed');
  });

  it('counts the shoots by outcome when one did not go well', () => {
    const items = [
      product('hat', [job('shoot', 'failed')]),
      product('cap', [job('shoot', 'outcome_unknown')]),
      product('mug', [job('shoot', 'done')]),
    ];
    expect(progressWords({ items })).toBe('1 of 3 products shot; 3 shoots: 1 made, 1 failed, 1 in doubt');
  });

  it('says the credits are what the service charged, and why before anything is finished', () => {
    expect(chargedWords({ creditsSpent: 52, creditsRefunded: 0, quotedCredits: 52, done: 0 })).toBe(
      '52 credits charged, 0 refunded, 52 net, of 52 quoted (each shoot and video is charged when it is sent, before it is finished)',
    );
    expect(chargedWords({ creditsSpent: 52, creditsRefunded: 0, quotedCredits: 52, done: 13 })).toBe(
      '52 credits charged, 0 refunded, 52 net, of 52 quoted',
    );
  });

  it('says charged, refunded and net as the CLI and MCP do', () => {
    expect(chargedWords({ creditsSpent: 460, creditsRefunded: 408, quotedCredits: 868, done: 12 })).toBe(
      '868 credits charged, 408 refunded, 460 net, of 868 quoted',
    );
  });

  it('tells what Pause can still hold back', () => {
    const allShootsSent = [
      product('hat', [job('shoot', 'done'), job('video', 'waiting', 40)]),
      product('cap', [job('shoot', 'running'), job('video', 'waiting', 40)]),
    ];
    expect(pauseWords({ items: allShootsSent })).toBe(
      'Every shoot has been sent: their 8 credits are spent. Pausing now holds only the 2 videos not sent yet (80 credits).',
    );
    const someWaiting = [product('hat', [job('shoot', 'waiting')]), product('cap', [job('shoot', 'done')])];
    expect(pauseWords({ items: someWaiting })).toBe(
      'Pausing now holds the 1 shoot not sent yet (4 credits); what was sent is charged.',
    );
    expect(pauseWords({ items: [product('hat', [job('shoot', 'done')])] })).toBe(
      'Everything has been sent and charged: pausing now holds nothing back.',
    );
  });
});
