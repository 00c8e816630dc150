import { createHash } from 'node:crypto';
import { lstat, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { exportDesktopChannels } from '../../shared/contract/export.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { localMoment } from '../../shared/local-time.ts';
import type { ExportScope } from '../../shared/models.ts';
import { AppError } from '../app/errors.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { ExportItem } from './export-item.ts';
import { exportItemsOf } from './export-items.ts';
import { removeStaleParts } from './export-parts.ts';
import { type ExportDeps, recipeNamed } from './handlers.ts';
import { missingFieldMessage } from './missing-fields.ts';
import { planExport } from './plan.ts';
import { parseRecipe } from './recipes.ts';
import { runExportInWorker } from './run-in-worker.ts';

// What the export dialog needs of the desktop beside the export itself (issue 13, point 9): the folder to
// export into (the OS's folder dialog), a finished export shown in the file manager, and Review's results
// dragged out to the desktop, Finder, Explorer or Photoshop, all of them, as they are or through a recipe.
// The renderer names results by id and recipes by id or name: every path here is main's, never the page's.

/** How long a drag's rendered copies are kept: whoever they were dropped on has copied or opened them. */
const DRAG_COPIES_KEPT_MS = 24 * 60 * 60 * 1000;

export function dragFolder(dataDir: string): string {
  return join(dataDir, 'cache', 'drag');
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Drag copies older than a day go; a failure to remove one is no reason to refuse a drag. */
async function pruneDragCopies(root: string, now: number): Promise<void> {
  const entries = await readdir(root).catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (entry) => {
      const info = await stat(join(root, entry)).catch(() => null);
      if (info && now - info.mtimeMs > DRAG_COPIES_KEPT_MS) {
        await rm(join(root, entry), { recursive: true, force: true }).catch(() => {});
      }
    }),
  );
}

export function exportOutHandlers(ctx: ExportDeps): HandlersOf<typeof exportDesktopChannels> {
  const { recipes, exportRecords: records } = ctx;

  /**
   * The dragged results through a recipe, into a folder of the data folder's cache named by what went in,
   * so a second drag of the same results through the same recipe finds them made and starts at once.
   */
  const rendered = async (items: ExportItem[], recipe: Recipe): Promise<string[]> => {
    // What the designer drags goes out whatever its flag, and whichever shot it is: the recipe gives the
    // format, size and metadata, not the choice (a guess; a rejected result dragged keeps no -1 rating).
    const chosen = items.map((item) => ({ ...item, flag: 'picked' as const }));
    const asDragged = parseRecipe({ ...recipe, shots: 'all', kinds: ['shot', 'video'] });
    const plan = await planExport({
      items: chosen,
      recipes: [asDragged],
      selection: { rule: 'picked', minStars: 0, videos: true, sources: false },
      date: localMoment(ctx.now()).date,
    });
    // Dragged out, a product a name needs a field of (its SKU) is refused as an export is, never left out.
    if (plan.missing.length > 0)
      throw new AppError('conflict', plan.missing.map(missingFieldMessage).join('\n'));
    const key = createHash('sha256')
      .update(JSON.stringify([asDragged, chosen.map((item) => [item.key, item.file])]))
      .digest('hex')
      .slice(0, 24);
    const root = dragFolder(ctx.dataDir);
    await pruneDragCopies(root, ctx.now());
    const destination = join(root, key);
    const paths = plan.files.map((file) => join(destination, ...file.relativePath.split('/')));
    const made = await Promise.all(paths.map(exists));
    if (made.every(Boolean)) return paths;
    const report = await runExportInWorker({
      plan,
      destination,
      manifest: { csv: false, json: false },
    });
    const failed = report.files.find((file) => file.status === 'failed');
    if (report.status !== 'done' || failed) {
      throw new AppError(
        'conflict',
        report.message ?? `${failed?.relativePath ?? 'A file'} could not be made: ${failed?.error ?? ''}`,
      );
    }
    return report.files.map((file) => join(destination, ...file.relativePath.split('/')));
  };

  return {
    'dialog:openFolder': () => ctx.openFolderDialog(),
    'export:reveal': async ({ id }) => {
      const record = records.get(id);
      if (!record) throw new AppError('not_found', `There is no export ${id}.`);
      // Its manifest selected in its folder, else the folder itself selected in its parent.
      const manifest = record.report?.manifests[0];
      const target = manifest ? join(record.destination, ...manifest.split('/')) : record.destination;
      await ctx.revealItem((await exists(target)) ? target : record.destination);
      return null;
    },
    'export:discard': async ({ id }) => {
      records.markInterrupted(() => false);
      const record = records.get(id);
      if (!record) throw new AppError('not_found', `There is no export ${id}.`);
      if (record.state !== 'interrupted') {
        throw new AppError(
          'conflict',
          `Export ${id} is ${record.state}: only an interrupted export is discarded.`,
        );
      }
      // What it finished stays where it is; what a kill left half-written goes, as a cancel would remove it.
      // (A plan that cannot be made again, its results gone from the library or its snapshot unreadable,
      // leaves nothing to find.)
      const plan = record.snapshot ? await planExport(record.snapshot).catch(() => null) : null;
      await removeStaleParts(
        record.destination,
        (plan?.files ?? []).map((file) => file.relativePath),
      );
      records.finish(id, 'cancelled', record.report, 'Discarded: the files it had finished stay.');
      return null;
    },
    'export:drag': async ({ scope, recipe }) => {
      const { items } = exportItemsOf(ctx, scope as ExportScope, false);
      if (items.length === 0) throw new AppError('not_found', 'None of those results is on disk.');
      const files = recipe
        ? await rendered(items, recipeNamed(await recipes.all(), recipe))
        : items.map((item) => item.file);
      const missing = (await Promise.all(files.map(exists))).findIndex((found) => !found);
      if (missing >= 0) throw new AppError('not_found', `${files[missing]} is no longer on disk.`);
      await ctx.startDrag(files);
      return { files: files.length };
    },
  };
}
