import { describe, expect, it } from 'vitest';
import { CoreEvents } from '../../../src-main/core/app/events.ts';
import { attachOsIntegration, noticeFor } from '../../../src-main/electron/os-integration.ts';
import { batchProgress as progress } from '../../support/batch-progress.ts';

describe('noticeFor', () => {
  it('tells when a batch finishes, runs out of credits, loses its key, loses its service, or needs a decision', () => {
    expect(
      noticeFor(
        progress({}),
        progress({ status: 'finished', done: 9, failed: 1, states: { done: 9, failed: 1 } }),
      ),
    ).toEqual({
      title: 'Spring is done',
      body: '10 shoots: 9 made, 1 failed.',
    });
    expect(
      noticeFor(progress({}), progress({ status: 'paused', statusReason: 'insufficient_credits' }))?.body,
    ).toMatch(/ran out of credits/);
    expect(
      noticeFor(progress({}), progress({ status: 'paused', statusReason: 'unauthorized' }))?.body,
    ).toMatch(/refused the API key/);
    expect(noticeFor(progress({}), progress({ status: 'paused', statusReason: 'hosting' }))?.body).toMatch(
      /could not be uploaded to the photo storage/,
    );
    const full = 'The disk that holds the library (/Volumes/Work) is full: free about 40 MB and resume.';
    expect(
      noticeFor(progress({}), progress({ status: 'paused', statusReason: 'library', statusMessage: full })),
    ).toEqual({ title: 'Spring is paused', body: full });
    expect(noticeFor(progress({}), progress({ attention: 1 }))).toEqual({
      title: 'Spring needs a decision',
      body: '1 shoot or video waits for your decision: open the batch to see what each allows.',
    });
    // Ending with credits in doubt is not done: the notification says what is at stake.
    expect(
      noticeFor(
        progress({ attention: 2, states: { outcome_unknown: 2 } }),
        progress({
          status: 'needs_you',
          done: 8,
          attention: 2,
          states: { done: 8, outcome_unknown: 2 },
          creditsAtStake: 8,
          creditsInDoubt: 8,
        }),
      ),
    ).toEqual({
      title: 'Spring needs you',
      body: '2 shoots or videos in doubt, 8 credits not yet settled (outcome unknown: 2). Check all again asks the service, free: nothing is sent again without your word.',
    });
    // A service that stops answering: said once, as it starts.
    const dropped = { kind: 'no_answer', reason: 'the connection was refused', since: 1_000 } as const;
    expect(noticeFor(progress({}), progress({ serviceTrouble: dropped }))).toEqual({
      title: 'Spring is waiting on the service',
      body: 'The service does not answer (the connection was refused). Adbatch keeps asking, and says when the batch is done.',
    });
    expect(
      noticeFor(progress({ serviceTrouble: dropped }), progress({ serviceTrouble: dropped, done: 1 })),
    ).toBeNull();
    expect(noticeFor(progress({ done: 1 }), progress({ done: 2 }))).toBeNull();
    expect(
      noticeFor(
        progress({ status: 'paused', statusReason: 'user' }),
        progress({ status: 'paused', statusReason: 'user' }),
      ),
    ).toBeNull();
  });
});

describe('attachOsIntegration', () => {
  it('shows the share of running jobs settled, clears it when nothing runs, and notifies once', () => {
    const events = new CoreEvents();
    const bars: number[] = [];
    const notes: string[] = [];
    attachOsIntegration(events, { setProgress: (f) => bars.push(f), notify: (title) => notes.push(title) }, [
      progress({ done: 2 }),
    ]);
    events.emit('batches:progress', progress({ id: 'b2', name: 'Autumn', jobs: 10, done: 8 }));
    events.emit('batches:progress', progress({ done: 10, status: 'finished' }));
    events.emit('batches:progress', progress({ id: 'b2', name: 'Autumn', done: 10, status: 'finished' }));
    expect(bars).toEqual([0.2, 0.5, 0.8, -1]);
    expect(notes).toEqual(['Spring is done', 'Autumn is done']);
  });
});

describe('an agent’s request', () => {
  it('is announced once, when it starts waiting; decided, it is not', () => {
    const events = new CoreEvents();
    const notes: string[] = [];
    const off = attachOsIntegration(
      events,
      { setProgress: () => {}, notify: (title, body) => notes.push(`${title} | ${body}`) },
      [],
    );
    const request = { id: 'ar_1', client: 'Claude Desktop', name: 'Spring drop', credits: 8 };
    events.emit('agents:changed', { ...request, state: 'pending' });
    events.emit('agents:changed', { ...request, state: 'created' });
    expect(notes).toEqual([
      'Claude Desktop asks to spend 8 credits | “Spring drop”: approve or decline it in Adbatch, Requests.',
    ]);
    off();
    events.emit('agents:changed', { ...request, id: 'ar_2', state: 'pending' });
    expect(notes).toHaveLength(1);
  });
});
