import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPartPath } from '../../../src-main/core/export/export-parts.ts';
import { EXAMPLES_DIR } from '../../harness/app-server.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  refusalOf,
  startCoreHarness,
} from '../../support/core-harness.ts';
import { gonePid } from '../../support/gone-pid.ts';

// The desktop side of an export through the handler map (issue 13, point 9), on a batch the embedded sandbox
// made: the folder dialog, Review's results dragged out (the files as they are, or made through a recipe into
// the data folder's cache, once), and a finished export shown in the file manager. Electron's own calls
// (startDrag, showItemInFolder) are the harness's stand-ins here; test/unit/electron covers them.

// `{date}` is the user's day, not UTC's: a zone whose day is not UTC's now (UTC-12 before noon UTC, UTC+14
// after), for the whole file (vitest runs each integration file in its own process).
const TIME_ZONE = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Pacific/Kiritimati';
process.env.TZ = TIME_ZONE;

let h: CoreHarness;
let out: string;
let batchId: string;
let resultIds: number[];
let files: string[];
let finishedId: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'adbatch-export-out-'));
  h = await startCoreHarness({ pickFolder: out });
  batchId = await finishedBatch(h.core, {
    inputs: ['bottles', 'cap-black', 'hat'].map((name) => join(EXAMPLES_DIR, name)),
    name: 'Drag out',
  });
  const review = await callCore(h.core, 'review:get', { batchId });
  resultIds = review.items.map((item) => item.id);
  files = review.items.map((item) => item.file);
}, 90_000);

afterAll(async () => {
  await h?.close();
  await rm(out, { recursive: true, force: true });
});

describe('the export dialog’s desktop calls', () => {
  it('answers the folder the OS dialog chose', async () => {
    expect(await callCore(h.core, 'dialog:openFolder')).toBe(out);
  });

  it('drags every selected result out as its own file, in Review’s order', async () => {
    expect(resultIds.length).toBe(3);
    const answer = await callCore(h.core, 'export:drag', { scope: { batchIds: [batchId], resultIds } });
    expect(answer).toEqual({ files: 3 });
    const dragged = h.dragged.at(-1)!;
    // The library's own files (Review names them under the batch's folder), nothing copied.
    expect(dragged).toHaveLength(3);
    dragged.forEach((file, at) => {
      expect(file.startsWith(join(h.dir, 'library'))).toBe(true);
      expect(file.endsWith(files[at]!)).toBe(true);
    });
    for (const file of dragged) expect((await stat(file)).isFile()).toBe(true);
  });

  it('drags them made through a recipe, each once, and a second drag finds them made', async () => {
    const chosen = resultIds.slice(1);
    expect(
      await callCore(h.core, 'export:drag', {
        scope: { batchIds: [batchId], resultIds: chosen },
        recipe: 'Web',
      }),
    ).toEqual({
      files: 2,
    });
    const made = h.dragged.at(-1)!;
    expect(made).toHaveLength(2);
    for (const file of made) {
      expect(file.startsWith(join(h.dir, 'data', 'cache', 'drag'))).toBe(true);
      const info = await sharp(file).metadata();
      expect(info.format).toBe('webp');
      expect(Math.max(info.width ?? 0, info.height ?? 0)).toBeLessThanOrEqual(1600);
    }
    const before = await Promise.all(made.map(async (file) => (await stat(file)).mtimeMs));
    await callCore(h.core, 'export:drag', {
      scope: { batchIds: [batchId], resultIds: chosen },
      recipe: 'web',
    });
    expect(h.dragged.at(-1)).toEqual(made);
    expect(await Promise.all(made.map(async (file) => (await stat(file)).mtimeMs))).toEqual(before);
  }, 60_000);

  it("names a dragged file's {date} as the computer's own day", async () => {
    await callCore(h.core, 'export:saveRecipe', {
      id: 'dated',
      name: 'Dated',
      format: { type: 'png' },
      size: { kind: 'long-edge', px: 256 },
      fileTemplate: '{date}-{n:03}',
    });
    const day = (at: number) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone: TIME_ZONE,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(at);
    const before = day(Date.now());
    await callCore(h.core, 'export:drag', {
      scope: { batchIds: [batchId], resultIds: resultIds.slice(0, 1) },
      recipe: 'dated',
    });
    const named = basename(h.dragged.at(-1)![0]!).slice(0, 10);
    expect([before, day(Date.now())]).toContain(named);
  }, 60_000);

  it('refuses a drag without a selection, an unknown recipe and a result of another batch', async () => {
    const count = h.dragged.length;
    expect((await refusalOf(h.core, 'export:drag', { scope: { batchIds: [batchId] } })).code).toBe(
      'bad_request',
    );
    expect(
      (
        await refusalOf(h.core, 'export:drag', {
          scope: { batchIds: [batchId], resultIds },
          recipe: 'Shopfy',
        })
      ).message,
    ).toMatch(/^There is no recipe "Shopfy": the recipes are Original, Shopify/);
    expect(
      (await refusalOf(h.core, 'export:drag', { scope: { batchIds: [batchId], resultIds: [999_999] } })).code,
    ).toBe('not_found');
    expect(
      (
        await refusalOf(h.core, 'export:drag', {
          scope: { batchIds: [batchId], resultIds: [1] },
          files: ['/etc'],
        })
      ).code,
    ).toBe('bad_request');
    expect(h.dragged.length).toBe(count);
  });

  it('shows a finished export with its manifest selected', async () => {
    await callCore(h.core, 'review:decide', {
      batchId,
      resultIds: resultIds.slice(0, 2),
      change: { flag: 'picked' },
    });
    const { id } = await callCore(h.core, 'export:start', {
      scope: { batchIds: [batchId] },
      recipes: ['Web'],
      destination: out,
    });
    const deadline = Date.now() + 60_000;
    while ((await callCore(h.core, 'export:get', { id })).state === 'running') {
      if (Date.now() > deadline) throw new Error('the export did not end');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await callCore(h.core, 'export:reveal', { id })).toBeNull();
    expect(h.revealedItems.at(-1)).toBe(join(out, 'manifest.csv'));
    expect((await stat(join(out, 'manifest.csv'))).isFile()).toBe(true);
    expect((await refusalOf(h.core, 'export:reveal', { id: 'nope' })).code).toBe('not_found');
    finishedId = id;
  }, 90_000);

  it('discards an interrupted export: no longer offered, its finished files kept, its half-written gone', async () => {
    // As a kill leaves it: still `running`, owned by no process that runs it.
    const db = new Database(join(h.dir, 'data', 'adbatch.db'));
    db.prepare("UPDATE exports SET state = 'running', owner_pid = ? WHERE id = ?").run(
      process.pid,
      finishedId,
    );
    db.close();
    const detail = await callCore(h.core, 'export:get', { id: finishedId });
    const first = detail.files[0]!.path;
    // Left by the export's writer, killed mid-write.
    const half = newPartPath(out, first, gonePid());
    await writeFile(half, 'half a file');
    const offered = (await callCore(h.core, 'export:list')).find((one) => one.id === finishedId);
    expect(offered).toMatchObject({ state: 'interrupted', resumable: true });

    expect(await callCore(h.core, 'export:discard', { id: finishedId })).toBeNull();
    const after = (await callCore(h.core, 'export:list')).find((one) => one.id === finishedId);
    expect(after).toMatchObject({ state: 'cancelled', resumable: false });
    await expect(stat(half)).rejects.toThrow(/ENOENT/);
    expect((await stat(join(out, ...first.split('/')))).isFile()).toBe(true);
    expect((await refusalOf(h.core, 'export:discard', { id: finishedId })).code).toBe('conflict');
  });
});
