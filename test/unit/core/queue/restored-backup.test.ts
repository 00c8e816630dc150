import { copyFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { backupTakenAt } from '../../../../src-main/core/db/backup-mark.ts';
import { DatabaseBackups } from '../../../../src-main/core/db/backups.ts';
import { openDatabase } from '../../../../src-main/core/db/open.ts';
import { holdRestoredBatches } from '../../../../src-main/core/queue/restored-backup.ts';
import { QueueStore } from '../../../../src-main/core/queue/store.ts';
import { localMinuteWords } from '../../../../src-main/shared/local-time.ts';
import {
  newBatch,
  products,
  SHOOT_PRICE,
  shootAndVideo,
  storePerTest,
  submitAndAccept,
  T0,
  VIDEO_PRICE,
} from './store-fixtures.ts';

// A restored backup must not pay twice: a real database file, its automatic backup taken by the real
// DatabaseBackups, copied over adbatch.db as the user restores it, and opened again. What the copy shows
// unsent is held (its batches paused `restored`, with what resuming may pay twice), once.

const ctx = storePerTest();

/** The batches the tests hold, in the states a backup can catch them in. */
function queueAsTheBackupSawIt() {
  const { store } = ctx;
  // Two products, a shoot and a video each: the first shoot was sent, the rest waits.
  const sending = store.createBatch(newBatch({ name: 'Sending' }));
  submitAndAccept(ctx, shootAndVideo(ctx, sending.id, 0).shoot.id);
  // Every job was sent: nothing of it can be sent again.
  const sent = store.createBatch(newBatch({ name: 'Sent', products: products(1), video: null }));
  submitAndAccept(ctx, store.jobs.ofBatch(sent.id)[0]!.id);
  // Paused for its library: it would go on by itself once the library can be written.
  const pausedForLibrary = store.createBatch(
    newBatch({ name: 'Library', products: products(1), video: null }),
  );
  store.batches.setStatus(pausedForLibrary.id, 'paused', 'library', 'The library folder is gone.');
  const cancelled = store.createBatch(newBatch({ name: 'Cancelled', products: products(1) }));
  store.jobs.cancelBatch(cancelled.id);
  store.batches.setStatus(cancelled.id, 'cancelled');
  const finished = store.createBatch(newBatch({ name: 'Finished', products: products(1), video: null }));
  store.batches.setStatus(finished.id, 'finished');
  return { sending, sent, pausedForLibrary, cancelled, finished };
}

/** The backup copied over adbatch.db as the user restores it, and opened again as core opens it. */
async function restore(backup: string): Promise<QueueStore> {
  ctx.db.close();
  await copyFile(backup, ctx.file);
  ctx.db = openDatabase(ctx.file);
  ctx.store = new QueueStore(ctx.db, () => ctx.clock.now);
  return ctx.store;
}

const moment = localMinuteWords(T0);
const restored = `Restored from the backup of ${moment}`;
const mayPayTwice = `may have been sent after it. Resuming sends them again and may pay for them twice: check with the service what was made since ${moment} before going on.`;

describe('a restored backup', () => {
  it('pauses every unfinished batch it holds, saying what resuming may pay twice, once', async () => {
    const batches = queueAsTheBackupSawIt();
    const backup = await new DatabaseBackups(ctx.db, ctx.dir, () => T0).take();
    // What was sent after the backup: the copy does not know it.
    ctx.clock.now += 60_000;
    submitAndAccept(ctx, shootAndVideo(ctx, batches.sending.id, 1).shoot.id);

    const store = await restore(backup);
    const held = holdRestoredBatches(store);

    const unsent = `${restored}: its 1 shoot and 2 videos not sent then (${SHOOT_PRICE + 2 * VIDEO_PRICE} credits) ${mayPayTwice}`;
    const nothingUnsent = `${restored}: nothing of this batch was waiting to be sent then, so resuming sends nothing again.`;
    const library = `${restored}: its 1 shoot not sent then (${SHOOT_PRICE} credits) ${mayPayTwice}`;
    expect(held).toEqual([
      { batchId: batches.sending.id, message: unsent },
      { batchId: batches.sent.id, message: nothingUnsent },
      { batchId: batches.pausedForLibrary.id, message: library },
    ]);
    const statusOf = (id: string) => {
      const batch = store.batches.get(id)!;
      return { status: batch.status, reason: batch.statusReason, message: batch.statusMessage };
    };
    expect(statusOf(batches.sending.id)).toEqual({ status: 'paused', reason: 'restored', message: unsent });
    expect(statusOf(batches.sent.id)).toEqual({
      status: 'paused',
      reason: 'restored',
      message: nothingUnsent,
    });
    expect(statusOf(batches.pausedForLibrary.id)).toEqual({
      status: 'paused',
      reason: 'restored',
      message: library,
    });
    expect(statusOf(batches.cancelled.id)).toEqual({ status: 'cancelled', reason: null, message: null });
    expect(statusOf(batches.finished.id)).toEqual({ status: 'finished', reason: null, message: null });
    // Nothing of the paused batches is ready to be sent: the engine's own question.
    const ids = Object.values(batches).map((batch) => batch.id);
    expect(store.jobs.readyToSubmit(ids, 'key-a', 10)).toEqual([]);

    // The mark is gone with the hold: opened again, the database holds nothing more.
    expect(backupTakenAt(store.db)).toBeNull();
    store.batches.resume(batches.sending.id);
    expect(holdRestoredBatches(store)).toEqual([]);
    expect(store.batches.get(batches.sending.id)?.status).toBe('running');
  });

  it('leaves a database that was never restored as it is', () => {
    const batches = queueAsTheBackupSawIt();
    const before = ctx.store.batches.all();
    expect(holdRestoredBatches(ctx.store)).toEqual([]);
    expect(ctx.store.batches.all()).toEqual(before);
    expect(ctx.store.jobs.readyToSubmit([batches.sending.id], 'key-a', 10)).not.toEqual([]);
  });
});
