import { randomUUID } from 'node:crypto';
import { access, constants, lstat, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { exportChannels } from '../../shared/contract/export.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { localMoment } from '../../shared/local-time.ts';
import type {
  ExportDetail,
  ExportFileView,
  ExportPlanView,
  ExportProgressView,
  ExportRequest,
  ExportView,
} from '../../shared/models.ts';
import type { ExportState } from '../../shared/vocabulary.ts';
import type { AppContext } from '../app/context.ts';
import { AppError } from '../app/errors.ts';
import { throttlePerKey } from '../app/events.ts';
import { refusalWords } from '../app/fs-refusal.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { markFolder } from '../folder-marks.ts';
import type { PhotoReachService } from '../hosting/photo-reach.ts';
import type { BrandStore } from '../ledger/brand-store.ts';
import type { QueueStore } from '../queue/store.ts';
import type { ReviewStore } from '../review/review-store.ts';
import { csvBomOf } from '../util/csv.ts';
import { localFaultOf } from '../util/local-fault.ts';
import { makeFolders } from '../util/make-folders.ts';
import { mapLimit } from '../util/map-limit.ts';
import { listingsWithoutMain } from './amazon-names.ts';
import { describeExportFault } from './export-fault.ts';
import { exportItemsOf } from './export-items.ts';
import type { ExportRecord, ExportRecords, ExportSnapshot, ExportSummary } from './export-records.ts';
import type { LastExportChoices } from './last-choice.ts';
import { missingFieldMessage } from './missing-fields.ts';
import { parseTemplate, TemplateError } from './names.ts';
import { placedBeforeOf } from './placed-before.ts';
import { type ExportPlan, type PlannedFile, planExport } from './plan.ts';
import { pixelChecksOf, startChecksOf } from './plan-pixels.ts';
import { nothingWouldBeWritten, summarisePreflight } from './preflight-summary.ts';
import type { RecipeStore } from './recipe-store.ts';
import { BUILT_IN_RECIPES, parseRecipe, RecipeError } from './recipes.ts';
import type { ExportReport, FileOutcome } from './run.ts';
import { runExportInWorker } from './run-in-worker.ts';
import { type ScopeBrand, scopeBrandOf } from './scope-brand.ts';
import {
  DEFAULT_SELECTION,
  leftOutOf,
  type NotDownloaded,
  notDownloadedLeftOut,
  type Selection,
} from './selection.ts';
import { shopifyPlanNotice, writeShopifyImport } from './shopify-export.ts';
import { planZips, writeZip } from './zips.ts';

// Export (issue 13) through the map: recipes (the built-ins and the designer's), a plan that says what
// would go out under which names before anything is written, and runs. A run works from a snapshot taken
// when it starts (the results, the recipes as they were, the date its names use), kept in the database
// (migration 008) so that an export a kill interrupted is offered again, and run again with the same names:
// what was finished is found identical and not written twice (docs/export.md). The run itself is in a
// worker thread (run-in-worker.ts); progress comes back as `export:progress` events, at most ten a second.

const PROGRESS_INTERVAL_MS = 100;
/** Files a plan's answer lists by name (the rest are counted). */
const PLANNED_NAMES = 20;
/** Files a finished export keeps with their warnings in its record. */
const FILES_KEPT = 2000;
/** Exports listed, and kept: older ended ones are forgotten (export-records.ts `prune`). */
const RECENT_EXPORTS = 50;

interface Running {
  controller: AbortController;
  finished: Promise<void>;
}

/**
 * What `export:start` answers: the export's id, whether it goes on from an interrupted one, what it leaves
 * out, and what its plan says before writing (the notices `export:plan` lists): a front end that starts an
 * export without asking for its plan first (MCP's `export_batch`) says them too.
 */
interface ExportStarted {
  id: string;
  resumed: boolean;
  leftOut: string[];
  notices: string[];
}

/**
 * The request in one canonical spelling, so that the same export asked twice is recognised: by whichever
 * front end (`rememberAs` is not part of what is exported).
 */
function requestKey({ rememberAs: _front, ...request }: ExportRequest): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
          .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
      );
    }
    return value;
  };
  return JSON.stringify(sorted(request));
}

function fileView(outcome: FileOutcome): ExportFileView {
  return {
    path: outcome.relativePath,
    recipe: outcome.planned.recipe.name,
    product: outcome.planned.item.product,
    status: outcome.status,
    bytes: outcome.bytes,
    sha256: outcome.sha256,
    warnings: outcome.warnings,
    ...(outcome.error ? { error: outcome.error } : {}),
  };
}

/** The recipe asked for by id or name (any case), or a refusal that lists the recipes there are. */
export function recipeNamed(known: readonly Recipe[], asked: string): Recipe {
  const wanted = asked.trim().toLowerCase();
  const recipe = known.find((one) => one.id === wanted || one.name.toLowerCase() === wanted);
  if (!recipe) {
    throw new AppError(
      'bad_request',
      `There is no recipe "${asked}": the recipes are ${known.map((one) => one.name).join(', ')}.`,
    );
  }
  return recipe;
}

/** What exports take: the results and decisions to read, and the one recipe store and export records. */
export interface ExportDeps extends AppContext {
  store: QueueStore;
  /** Where an export's Shopify files are uploaded (photo storage), when it is set up. */
  photos: PhotoReachService;
  review: ReviewStore;
  recipes: RecipeStore;
  exportRecords: ExportRecords;
  brands: BrandStore;
  lastChoices: LastExportChoices;
}

export interface ExportService {
  handlers: HandlersOf<typeof exportChannels>;
  /** Cancels the runs of this process and waits for them (what they finished stays). */
  stop(): Promise<void>;
}

export function exportHandlers(ctx: ExportDeps): ExportService {
  const { store, review, events, log } = ctx;
  const { recipes, exportRecords: records, lastChoices } = ctx;
  const running = new Map<string, Running>();
  /** Set as core stops: a run cut short then was interrupted (offered again at the next start), not cancelled. */
  let stopping = false;
  const latest = new Map<string, ExportProgressView>();
  const progress = throttlePerKey(PROGRESS_INTERVAL_MS, (id) => {
    const view = latest.get(id);
    if (!view) return;
    records.setProgress(id, view);
    events.emit('export:progress', view);
  });

  const refreshStates = () => records.markInterrupted((id) => running.has(id));

  const asRequestError = (error: unknown): never => {
    if (error instanceof TemplateError || error instanceof RecipeError) {
      throw new AppError('bad_request', error.message);
    }
    throw error;
  };

  /** The recipes asked for, by id or name, with the request's templates in place of their own. */
  const recipesOf = async (request: ExportRequest): Promise<Recipe[]> => {
    const known = await recipes.all();
    const chosen = request.recipes.map((asked) => recipeNamed(known, asked));
    try {
      if (request.fileTemplate !== undefined) parseTemplate(request.fileTemplate);
      if (request.folderTemplate !== undefined) parseTemplate(request.folderTemplate);
      if (request.fileTemplate && /[/\\]/.test(request.fileTemplate)) {
        throw new TemplateError(
          `The file-name template "${request.fileTemplate}" has a folder separator: folders belong in the folder template.`,
        );
      }
      return chosen.map((recipe) =>
        parseRecipe({
          ...recipe,
          ...(request.fileTemplate !== undefined ? { fileTemplate: request.fileTemplate } : {}),
          ...(request.folderTemplate !== undefined ? { folderTemplate: request.folderTemplate } : {}),
        }),
      );
    } catch (error) {
      return asRequestError(error);
    }
  };

  /** The client brand the scope's batches are billed to: whose last choice an export is remembered as. */
  const brandOf = (scope: ExportRequest['scope']): ScopeBrand =>
    scopeBrandOf(exportItemsOf({ store, review }, scope, false).batches, ctx.brands);

  /** The recipes and folder of an export that started, as its front end's last for the brand. */
  const remember = (request: ExportRequest, recipeIds: string[], brand: ScopeBrand) => {
    if (request.rememberAs === undefined) return;
    lastChoices.remember(brand.key, request.rememberAs, {
      recipes: recipeIds,
      destination: request.destination,
    });
  };

  const snapshotOf = async (
    request: ExportRequest,
  ): Promise<ExportSnapshot & { notices: string[]; brand: ScopeBrand; notDownloaded: NotDownloaded }> => {
    const selection: Selection = { ...DEFAULT_SELECTION, ...request.selection };
    const chosen = await recipesOf(request);
    const { items, notices, batches, notDownloaded } = exportItemsOf(
      { store, review },
      request.scope,
      selection.sources,
    );
    return {
      items,
      recipes: chosen,
      selection,
      date: localMoment(ctx.now()).date,
      destination: request.destination,
      zip: request.zip ?? null,
      manifest: {
        ...(request.manifest ?? { csv: true, json: true }),
        // Fixed in the snapshot: a resumed export writes its manifest as it was asked, whatever changed since.
        bom: csvBomOf(ctx.settings(), request.manifest?.bom),
      },
      acceptWarnings: request.acceptWarnings ?? [],
      notices,
      brand: scopeBrandOf(batches, ctx.brands),
      notDownloaded,
    };
  };

  /** What a plan says before writing: the scope's notices, the plan's, and where Shopify's files will go. */
  const planNoticesOf = (scopeNotices: readonly string[], plan: ExportPlan): string[] => {
    const shopify = shopifyPlanNotice(plan.files, ctx.photos.uploadStorage());
    return [...scopeNotices, ...plan.notices.map((notice) => notice.message), ...(shopify ? [shopify] : [])];
  };

  const planOf = async (snapshot: ExportSnapshot): Promise<ExportPlan> => {
    try {
      return await planExport({
        items: snapshot.items,
        recipes: snapshot.recipes,
        selection: snapshot.selection,
        date: snapshot.date,
        destination: snapshot.destination,
      });
    } catch (error) {
      return asRequestError(error);
    }
  };

  /**
   * A folder that cannot be made or written is refused before anything starts, in the run's own words.
   * Says whether the folder was made now (an export then refused takes it away again) and whether it was
   * empty: one Adbatch makes, or finds empty, is marked as its own export once the export runs
   * (core/folder-marks.ts), never to be scanned for products; in a folder that holds other things, only
   * what the export places is Adbatch's.
   */
  const checkDestination = async (destination: string) => {
    try {
      const made = !(await stat(destination).catch(() => null))?.isDirectory();
      const fresh = (await readdir(destination).catch(() => [])).length === 0;
      await makeFolders(destination);
      await access(destination, constants.W_OK);
      const probe = join(destination, `.adbatch-probe-${randomUUID()}`);
      await writeFile(probe, '');
      await rm(probe, { force: true });
      return { made, fresh };
    } catch (error) {
      const fault = localFaultOf(error);
      // A file where a folder should be is not a folder gone: said as such by dispatch (app/fs-refusal.ts).
      if (!fault || fault.code === 'ENOTDIR') throw error;
      throw new AppError('conflict', describeExportFault(fault, destination, 0));
    }
  };

  const emitProgress = (view: ExportProgressView) => {
    // A phase's last step still waiting for its turn would be overwritten by the next phase's first
    // (the files' 8 of 8 never said, on a loaded machine): it goes out before the phase changes.
    if (latest.get(view.id)?.phase !== view.phase) progress.flush();
    latest.set(view.id, view);
    progress.touch(view.id);
  };

  const summaryOf = (report: ExportReport, zips: string[], notes: string[]): ExportSummary => ({
    written: report.written,
    identical: report.identical,
    failed: report.failed,
    manifests: report.manifests,
    zips,
    files: report.files.slice(0, FILES_KEPT).map(fileView),
    ...(notes.length > 0 ? { notes } : {}),
  });

  /** `planned`: the plan export:start already made of this snapshot (a resumed export plans it again). */
  const run = async (
    id: string,
    snapshot: ExportSnapshot,
    signal: AbortSignal,
    planned: ExportPlan | null,
  ): Promise<void> => {
    let state: ExportState = 'failed';
    let summary: ExportSummary | null = null;
    let message: string | null = null;
    try {
      const plan = planned ?? (await planOf(snapshot));
      const placedBefore = records.placedIn(snapshot.destination);
      const report = await runExportInWorker({
        plan,
        destination: snapshot.destination,
        manifest: snapshot.manifest,
        acceptWarnings: snapshot.acceptWarnings,
        placedBefore,
        signal,
        onProgress: (step) => emitProgress({ id, phase: 'files', ...step }),
        onFile: (outcome) => {
          const placed = placedBeforeOf(outcome);
          if (placed) records.rememberPlaced(snapshot.destination, placed);
        },
      });
      for (const placed of report.manifestsPlaced) records.rememberPlaced(snapshot.destination, placed);
      const zips: string[] = [];
      const notes: string[] = [];
      state = report.status;
      message = report.message ?? null;
      if (report.status === 'done') {
        notes.push(...listingsWithoutMain(report.files));
        try {
          const shopify = await writeShopifyImport({
            destination: snapshot.destination,
            files: report.files,
            taken: [...report.files.map((file) => file.relativePath), ...report.manifests],
            storage: ctx.photos.uploadStorage(),
            signal,
          });
          if (shopify) {
            report.manifests.push(shopify.relativePath);
            notes.push(...shopify.notes);
            records.rememberPlaced(snapshot.destination, {
              plannedPath: shopify.relativePath,
              renderKey: `shopify-import:${shopify.sha256}`,
              relativePath: shopify.relativePath,
              sha256: shopify.sha256,
              bytes: shopify.bytes,
              width: 0,
              height: 0,
              warnings: [],
            });
          }
        } catch (error) {
          if (signal.aborted) state = 'cancelled';
          else {
            const fault = localFaultOf(error);
            if (!fault) throw error;
            state = 'stopped';
            message = describeExportFault(fault, snapshot.destination, report.written + report.identical);
          }
        }
      }
      if (state === 'done' && snapshot.zip) {
        const taken = [...report.files.map((file) => file.relativePath), ...report.manifests];
        const planned = planZips(report.files, snapshot.zip, taken);
        for (const [index, zip] of planned.entries()) {
          try {
            const placed = await writeZip(snapshot.destination, zip, {
              date: snapshot.date,
              signal,
              placedBefore: placedBefore.find((before) => before.plannedPath === zip.path),
            });
            const { relativePath, sha256, bytes, renderKey } = placed;
            records.rememberPlaced(snapshot.destination, {
              plannedPath: zip.path,
              renderKey,
              relativePath,
              sha256,
              bytes,
              width: 0,
              height: 0,
              warnings: [],
            });
            zips.push(placed.relativePath);
            emitProgress({
              id,
              phase: 'zips',
              done: index + 1,
              total: planned.length,
              written: placed.status === 'written' ? 1 : 0,
              identical: placed.status === 'identical' ? 1 : 0,
              failed: 0,
              bytesWritten: placed.status === 'written' ? placed.bytes : 0,
              etaMs: null,
              path: placed.relativePath,
            });
          } catch (error) {
            if (signal.aborted) {
              state = 'cancelled';
              break;
            }
            const fault = localFaultOf(error);
            if (!fault) throw error;
            state = 'stopped';
            message = describeExportFault(fault, snapshot.destination, report.written + report.identical);
            break;
          }
        }
      }
      summary = summaryOf(report, zips, notes);
    } catch (error) {
      state = 'failed';
      message = `The export failed: ${refusalWords(error)}`;
      log.error(`export ${id} failed`, error);
    } finally {
      if (stopping && state === 'cancelled') {
        state = 'interrupted';
        message = 'The export was interrupted (Adbatch quit): run it again to finish it.';
      }
      progress.flush();
      records.finish(id, state, summary, message);
      records.prune(RECENT_EXPORTS);
      running.delete(id);
      const { written = 0, identical = 0, failed = 0 } = summary ?? {};
      events.emit('export:changed', { id, state, written, identical, failed });
    }
  };

  const launch = (id: string, snapshot: ExportSnapshot, plan: ExportPlan | null = null) => {
    const controller = new AbortController();
    const entry: Running = { controller, finished: Promise.resolve() };
    running.set(id, entry);
    entry.finished = run(id, snapshot, controller.signal, plan);
  };

  /** Exports this process starts or runs, by their request (`requestKey`): what `export:start` answers again. */
  const underWay = new Map<string, Promise<ExportStarted>>();
  const startExport = async (request: ExportRequest, key: string): Promise<ExportStarted> => {
    refreshStates();
    const interrupted = records.interruptedOf(key);
    // The same export a kill interrupted: run again from its snapshot, so its names are the same (one that
    // cannot be read is not resumed: this export starts anew).
    const destination = await checkDestination(request.destination);
    if (interrupted && interrupted.unreadable === null) {
      if (destination.fresh) await markFolder(request.destination, 'export');
      const { snapshot } = interrupted;
      records.claim(interrupted.id, process.pid);
      // A plan that cannot be made again is the run's failure, said in its record, not the start's.
      const plan = await planOf(snapshot).catch(() => null);
      launch(interrupted.id, snapshot, plan);
      remember(
        request,
        snapshot.recipes.map((recipe) => recipe.id),
        brandOf(request.scope),
      );
      return {
        id: interrupted.id,
        resumed: true,
        leftOut: leftOutOf(snapshot.items, snapshot.selection, snapshot.recipes),
        // The scope's own notices (a source photo that is only a URL) were said when it first started.
        notices: plan ? planNoticesOf([], plan) : [],
      };
    }
    const { notices, brand, notDownloaded, ...snapshot } = await snapshotOf(request);
    const plan = await planOf(snapshot);
    const refusal =
      plan.missing.length > 0
        ? plan.missing.map(missingFieldMessage).join('\n')
        : plan.files.length === 0
          ? 'Nothing to export: no result is picked (or kept by the choice made).'
          : nothingWouldBeWritten(
              await startChecksOf(plan.files, snapshot.acceptWarnings),
              snapshot.acceptWarnings,
            );
    if (refusal) {
      // A refused export leaves no trace: the folder it made for itself is taken away (if still empty).
      if (destination.made) await rmdir(request.destination).catch(() => {});
      throw new AppError('conflict', refusal);
    }
    if (destination.fresh) await markFolder(request.destination, 'export');
    const id = randomUUID();
    records.create({ id, request: key, snapshot, ownerPid: process.pid });
    launch(id, snapshot, plan);
    remember(
      request,
      snapshot.recipes.map((recipe) => recipe.id),
      brand,
    );
    return {
      id,
      resumed: false,
      leftOut: [...plan.leftOut, ...notDownloadedLeftOut(notDownloaded)],
      notices: planNoticesOf(notices, plan),
    };
  };

  const viewOf = (record: ExportRecord): ExportView => {
    const summary = record.report;
    return {
      id: record.id,
      state: record.state,
      destination: record.destination,
      createdAt: record.createdAt,
      finishedAt: record.finishedAt,
      recipes: record.snapshot?.recipes.map((recipe) => recipe.name) ?? [],
      total: record.progress?.phase === 'files' ? record.progress.total : (summary?.files.length ?? 0),
      progress: latest.get(record.id) ?? record.progress,
      message: record.unreadable !== null ? `${record.unreadable}.` : record.message,
      manifests: summary?.manifests ?? [],
      zips: summary?.zips ?? [],
      notes: summary?.notes ?? [],
      written: summary?.written ?? 0,
      identical: summary?.identical ?? 0,
      failed: summary?.failed ?? 0,
      resumable: record.state === 'interrupted' && record.unreadable === null,
    };
  };

  const requireRecord = (id: string): ExportRecord => {
    refreshStates();
    const record = records.get(id);
    if (!record) throw new AppError('not_found', `There is no export ${id}.`);
    return record;
  };

  const handlers: HandlersOf<typeof exportChannels> = {
    'export:recipes': async () => {
      const saved = await recipes.saved();
      return {
        recipes: [
          ...BUILT_IN_RECIPES.map((recipe) => ({ ...recipe, builtIn: true })),
          ...saved.recipes.map((recipe) => ({ ...recipe, builtIn: false })),
        ],
        unreadable: saved.unreadable.map(({ reason }) => ({ reason })),
      };
    },
    'export:saveRecipe': async (recipe) => {
      try {
        return await recipes.save(recipe);
      } catch (error) {
        return asRequestError(error);
      }
    },
    'export:deleteRecipe': async ({ id }) => {
      if (!(await recipes.remove(id))) throw new AppError('not_found', `There is no saved recipe ${id}.`);
      return null;
    },
    'export:plan': async (request): Promise<ExportPlanView> => {
      const snapshot = await snapshotOf(request);
      const plan = await planOf(snapshot);
      const exists = await mapLimit(plan.files, 16, async (file) => {
        try {
          await lstat(join(snapshot.destination, file.relativePath));
          return true;
        } catch {
          return false;
        }
      });
      // Everything knowable before writing: sizes and paths from the plan, the white background from
      // the pixels rendered in memory.
      const measured = await pixelChecksOf(plan.files);
      const checksOf = (file: PlannedFile) => [...file.checks, ...(measured.get(file.index) ?? [])];
      const checks = plan.files.map(checksOf);
      const preflight = summarisePreflight(checks, snapshot.acceptWarnings);
      const messages = (index: number, severity: 'error' | 'warning') =>
        checks[index]!.filter((check) => check.severity === severity).map((check) => check.message);
      // Every planned file as if written: the zips' names are known before their sizes.
      const zips = snapshot.zip
        ? planZips(
            plan.files.map((planned) => ({
              planned,
              relativePath: planned.relativePath,
              status: 'written',
              bytes: 0,
              sha256: '',
            })),
            snapshot.zip,
            plan.files.map((file) => file.relativePath),
          ).map((zip) => zip.path)
        : [];
      return {
        total: plan.files.length,
        files: plan.files.slice(0, PLANNED_NAMES).map((file, index) => ({
          path: file.relativePath,
          recipe: file.recipe.name,
          product: file.item.product,
          width: file.width,
          height: file.height,
          warnings: messages(index, 'warning'),
          errors: messages(index, 'error'),
          exists: exists[index]!,
        })),
        collisions: exists.filter(Boolean).length,
        warned: checks.filter((some) => some.some((check) => check.severity === 'warning')).length,
        preflight: preflight.kinds,
        blocked: preflight.blocked,
        notices: planNoticesOf(snapshot.notices, plan),
        blocking: plan.missing.map(missingFieldMessage),
        zips,
        leftOut: [...plan.leftOut, ...notDownloadedLeftOut(snapshot.notDownloaded)],
      };
    },
    'export:start': async (request) => {
      // The same export asked again while this process starts or runs it (a second click on Export, an
      // agent's retry of export_batch) is the one under way: it once ran twice, the second finding every
      // file already there.
      const key = requestKey(request);
      // Looked up and claimed with no await between, so calls in one turn find each other; one that waited
      // for an export that ended meanwhile starts anew unless another call already has.
      for (let pending = underWay.get(key); pending; pending = underWay.get(key)) {
        const current = await pending.catch(() => null);
        if (current && running.has(current.id)) return current;
        if (underWay.get(key) === pending) break;
      }
      const starting = startExport(request, key);
      underWay.set(key, starting);
      const forget = () => {
        if (underWay.get(key) === starting) underWay.delete(key);
      };
      try {
        const started = await starting;
        const entry = running.get(started.id);
        if (entry) void entry.finished.then(forget, forget);
        else forget();
        return started;
      } catch (error) {
        forget();
        throw error;
      }
    },
    'export:lastChoice': async ({ scope, from }) => {
      const brand = brandOf(scope);
      const last = lastChoices.get(brand.key, from);
      return last && { brand: brand.name, ...last };
    },
    'export:resume': async ({ id }) => {
      const record = requireRecord(id);
      if (record.state !== 'interrupted') {
        throw new AppError(
          'conflict',
          `Export ${id} is ${record.state}: only an interrupted export is resumed.`,
        );
      }
      if (record.unreadable !== null) {
        throw new AppError('conflict', `Export ${id} cannot be resumed: ${record.unreadable}.`);
      }
      if ((await checkDestination(record.destination)).fresh) await markFolder(record.destination, 'export');
      records.claim(id, process.pid);
      launch(id, record.snapshot);
      return viewOf(records.get(id)!);
    },
    'export:cancel': async ({ id }) => {
      const entry = running.get(id);
      if (!entry) {
        const record = requireRecord(id);
        if (record.state === 'running') {
          throw new AppError('conflict', `Export ${id} runs in another Adbatch process: cancel it there.`);
        }
        return viewOf(record);
      }
      entry.controller.abort();
      await entry.finished;
      return viewOf(records.get(id)!);
    },
    'export:list': async () => {
      refreshStates();
      return records.recent(RECENT_EXPORTS).map(viewOf);
    },
    'export:get': async ({ id }): Promise<ExportDetail> => {
      const record = requireRecord(id);
      return { ...viewOf(record), files: record.report?.files ?? [] };
    },
  };

  return {
    handlers,
    async stop() {
      stopping = true;
      for (const entry of running.values()) entry.controller.abort();
      await Promise.all([...running.values()].map((entry) => entry.finished));
    },
  };
}
