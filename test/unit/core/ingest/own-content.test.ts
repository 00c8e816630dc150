import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportRecords } from '../../../../src-main/core/export/export-records.ts';
import { ownContentOf } from '../../../../src-main/core/ingest/own-content.ts';
import { placedFile } from '../../../support/export-item.ts';
import { INTO_STATE, productJobs, withQueueStore } from '../../../support/job-states.ts';
import { newBatch } from '../queue/store-fixtures.ts';

// What the scan knows by a photo's bytes (issue 27, point 2), on a real database: a result downloaded and a
// file an export placed are Adbatch's, wherever a copy of one went; a photo a batch was shot from is the
// designer's, though an export copied it as it is or the service answered it unchanged.

const sha = (letter: string) => letter.repeat(64);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-own-content-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A batch shot from a photo whose bytes are `a`, its first shoot done with one result, and what asks. */
function seeded<T>(
  ask: (own: ReturnType<typeof ownContentOf>, exports: ExportRecords, result: (sha256: string) => void) => T,
): T {
  return withQueueStore(dir, (ctx) => {
    const batch = ctx.store.createBatch(
      newBatch({
        name: 'Spring',
        products: [
          {
            name: 'hat',
            sourceDir: '/photos/hat',
            photos: [{ path: '/photos/hat/1.png', url: null, hash: sha('a') }],
          },
        ],
      }),
    );
    const { shoot, video } = productJobs(ctx, batch.id)[0]!;
    INTO_STATE.done(ctx, shoot, video);
    const [asset] = ctx.store.assets.ofJob(shoot.id);
    const exports = new ExportRecords(ctx.db, () => 0);
    return ask(ownContentOf(ctx.store.batches, ctx.store.assets, exports), exports, (sha256) =>
      ctx.db.prepare('UPDATE assets SET sha256 = ? WHERE id = ?').run(sha256, asset!.id),
    );
  });
}

describe('ownContentOf', () => {
  it('knows a result downloaded and a file an export placed by their bytes, and nothing else', () => {
    seeded((own, exports, result) => {
      result(sha('b'));
      exports.rememberPlaced('/exports/web', placedFile('Web/hat-01.jpg', sha('c')));
      expect(own(sha('b'))).toEqual({
        kind: 'results',
        reason: 'a result Adbatch downloaded (hat, in batch “Spring”)',
      });
      expect(own(sha('c'))).toEqual({
        kind: 'export',
        reason: 'a copy of an image Adbatch exported (/exports/web/Web/hat-01.jpg)',
      });
      expect(own(sha('e'))).toBeNull();
    });
  });

  it('leaves the designer the photos a batch was shot from, whatever copy of them Adbatch holds', () => {
    seeded((own, exports, result) => {
      // An export's sources copied as they are, and a result the service answered unchanged.
      exports.rememberPlaced('/exports/with-sources', placedFile('Sources/hat-1.png', sha('a')));
      expect(own(sha('a'))).toBeNull();
      result(sha('a'));
      expect(own(sha('a'))).toBeNull();
    });
  });
});
