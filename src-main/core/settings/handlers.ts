import { join } from 'node:path';
import type { settingsChannels } from '../../shared/contract/settings.ts';
import type { Settings } from '../../shared/models.ts';
import type { AppContext } from '../app/context.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { batchFolder } from '../library.ts';
import { requireBatch } from '../queue/decisions.ts';
import type { QueueDriver } from '../queue/queue-driver.ts';
import type { QueueStore } from '../queue/store.ts';
import { csvBomOf } from '../util/csv.ts';
import { makeFolders } from '../util/make-folders.ts';

// The app itself: its facts, its settings, and the library shown in the file manager.

/** The settings as they apply: a preference never set shows its default (the CSV files' byte-order mark). */
function withDefaults(settings: Settings): Settings {
  return { ...settings, csvBom: csvBomOf(settings) };
}

export function settingsHandlers(
  ctx: AppContext & { store: QueueStore; queue: QueueDriver },
): HandlersOf<typeof settingsChannels> {
  return {
    'app:info': async () => ({
      version: ctx.version,
      platform: process.platform,
      libraryDir: ctx.settings().libraryDir,
      queue: ctx.queue.owner(),
    }),
    'settings:get': async () => withDefaults(ctx.settings()),
    'settings:set': async (patch) => {
      const before = ctx.settings();
      const next = { ...before, ...patch };
      ctx.writeSettings(next);
      if (next.budgetMarginPercent !== before.budgetMarginPercent) await ctx.queue.restartEngine();
      return withDefaults(next);
    },
    'library:reveal': async ({ batchId }) => {
      const batch = batchId ? requireBatch(ctx.store, batchId) : null;
      const folder = batch ? join(batch.libraryDir, batchFolder(batch)) : ctx.settings().libraryDir;
      await makeFolders(folder);
      return { folder, failure: await ctx.revealFolder(folder) };
    },
  };
}
