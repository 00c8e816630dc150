import { join } from 'node:path';
import type { Recipe } from '../../shared/export-recipe.ts';
import type { ExportFileView, ExportProgressView } from '../../shared/models.ts';
import type { ExportState, PreflightWarning } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import {
  storedExportProgress,
  storedExportReport,
  storedExportSnapshot,
  storedWarnings,
  tryReadStored,
  UnreadableError,
} from '../db/stored.ts';
import { processAlive } from '../util/process-alive.ts';
import type { ExportItem } from './export-item.ts';
import type { PlacedBefore } from './placed-before.ts';
import type { Selection } from './selection.ts';

// The exports started in this data folder (migration 008): what was asked, the snapshot the run works from
// (results, recipes and date, fixed at the start, so a resumed export plans the same names), who runs it,
// its progress and, once it ended, its report in short. A `running` export whose process is gone was
// interrupted by a kill or a crash: it is offered again, and a re-run of the same request resumes it. An
// export whose snapshot, progress or report no longer parses (db/stored.ts) is listed as `unreadable`, with
// why: it cannot be resumed, and the other exports are listed as ever.

export interface ExportSnapshot {
  items: ExportItem[];
  recipes: Recipe[];
  selection: Selection;
  date: string;
  destination: string;
  zip: 'per-product' | 'per-recipe' | null;
  manifest: { csv: boolean; json: boolean; bom?: boolean };
  /** The pre-flight warnings written anyway. */
  acceptWarnings: PreflightWarning[];
}

export interface ExportSummary {
  written: number;
  identical: number;
  failed: number;
  manifests: string[];
  zips: string[];
  /** The first files of the run, with their warnings. */
  files: ExportFileView[];
  /** What the export says besides its files (Shopify's import file and its addresses). */
  notes?: string[];
}

interface ExportRecordBase {
  id: string;
  createdAt: number;
  finishedAt: number | null;
  state: ExportState;
  destination: string;
  /** The request as asked, canonical JSON: what tells a re-run of the same export. */
  request: string;
  ownerPid: number | null;
  message: string | null;
}

export type ExportRecord =
  | (ExportRecordBase & {
      unreadable: null;
      snapshot: ExportSnapshot;
      progress: ExportProgressView | null;
      report: ExportSummary | null;
    })
  /** Its snapshot, progress or report does not parse: `unreadable` says which, and why. */
  | (ExportRecordBase & { unreadable: string; snapshot: null; progress: null; report: null });

interface Row {
  id: string;
  created_at: number;
  finished_at: number | null;
  state: ExportState;
  destination: string;
  request: string;
  snapshot: string;
  owner_pid: number | null;
  progress: string | null;
  report: string | null;
  message: string | null;
}

interface PlacedRow {
  planned_path: string;
  render_key: string;
  path: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
  warnings: string;
}

function toRecord(row: Row): ExportRecord {
  const base: ExportRecordBase = {
    id: row.id,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    state: row.state,
    destination: row.destination,
    request: row.request,
    ownerPid: row.owner_pid,
    message: row.message,
  };
  const snapshot = tryReadStored(storedExportSnapshot, row.snapshot, `Export ${row.id}'s snapshot`);
  const progress = row.progress
    ? tryReadStored(storedExportProgress, row.progress, `Export ${row.id}'s progress`)
    : null;
  const report = row.report
    ? tryReadStored(storedExportReport, row.report, `Export ${row.id}'s report`)
    : null;
  const unreadable = (error: UnreadableError): ExportRecord => ({
    ...base,
    unreadable: error.message,
    snapshot: null,
    progress: null,
    report: null,
  });
  if (snapshot instanceof UnreadableError) return unreadable(snapshot);
  if (progress instanceof UnreadableError) return unreadable(progress);
  if (report instanceof UnreadableError) return unreadable(report);
  return { ...base, unreadable: null, snapshot, progress, report };
}

export class ExportRecords {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  create(record: { id: string; request: string; snapshot: ExportSnapshot; ownerPid: number }): void {
    this.db
      .prepare(
        `INSERT INTO exports (id, created_at, state, destination, request, snapshot, owner_pid)
         VALUES (?, ?, 'running', ?, ?, ?, ?)`,
      )
      .run(
        record.id,
        this.now(),
        record.snapshot.destination,
        record.request,
        JSON.stringify(record.snapshot),
        record.ownerPid,
      );
  }

  /** Takes an interrupted export over to run it again in this process. */
  claim(id: string, ownerPid: number): void {
    this.db
      .prepare(
        "UPDATE exports SET state = 'running', owner_pid = ?, finished_at = NULL, message = NULL WHERE id = ?",
      )
      .run(ownerPid, id);
  }

  setProgress(id: string, progress: ExportProgressView): void {
    this.db.prepare('UPDATE exports SET progress = ? WHERE id = ?').run(JSON.stringify(progress), id);
  }

  finish(id: string, state: ExportState, report: ExportSummary | null, message: string | null): void {
    this.db
      .prepare(
        'UPDATE exports SET state = ?, finished_at = ?, report = ?, message = ?, owner_pid = NULL WHERE id = ?',
      )
      .run(state, this.now(), report ? JSON.stringify(report) : null, message, id);
  }

  /**
   * Forgets the ended exports past the newest `keep` (a large export's snapshot holds every item: about
   * 600 bytes each), never a running or interrupted one, and what the folders no export left names were
   * placed with: a re-run there then renders again and finds its files by their bytes, as before migration 009.
   */
  prune(keep: number): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `DELETE FROM exports WHERE state NOT IN ('running', 'interrupted') AND id NOT IN
           (SELECT id FROM exports ORDER BY created_at DESC, rowid DESC LIMIT ?)`,
        )
        .run(keep);
      this.db
        .prepare('DELETE FROM export_files WHERE destination NOT IN (SELECT destination FROM exports)')
        .run();
    })();
  }

  get(id: string): ExportRecord | null {
    const row = this.db.prepare<[string], Row>('SELECT * FROM exports WHERE id = ?').get(id);
    return row ? toRecord(row) : null;
  }

  /** The newest first. */
  recent(limit: number): ExportRecord[] {
    return this.db
      .prepare<[number], Row>('SELECT * FROM exports ORDER BY created_at DESC, rowid DESC LIMIT ?')
      .all(limit)
      .map(toRecord);
  }

  /**
   * The recipes of the newest `exports` exports of batches billed to this brand (null: to none), newest first,
   * each once (by id, as frozen then): the recipes New batch measures the chosen quality against.
   */
  recentRecipes(brandId: string | null, exports = 10): Recipe[] {
    const rows = this.db
      .prepare<[string | null, number], Row>(
        `SELECT * FROM exports e WHERE EXISTS (
           SELECT 1 FROM json_each(e.request, '$.scope.batchIds') AS chosen
           JOIN batches b ON b.id = chosen.value WHERE b.brand_id IS ?)
         ORDER BY e.created_at DESC, e.rowid DESC LIMIT ?`,
      )
      .all(brandId, exports);
    const recipes = new Map<string, Recipe>();
    for (const record of rows.map(toRecord)) {
      for (const recipe of record.snapshot?.recipes ?? []) {
        if (!recipes.has(recipe.id)) recipes.set(recipe.id, recipe);
      }
    }
    return [...recipes.values()];
  }

  /**
   * `running` exports whose process is gone become `interrupted`; `runningHere` says which this process runs
   * (its own pid may be a dead process's, reused). A guess: another process's pid is not reused within an
   * export's life.
   */
  markInterrupted(runningHere: (id: string) => boolean): void {
    const rows = this.db
      .prepare<[], Pick<Row, 'id' | 'owner_pid'>>("SELECT id, owner_pid FROM exports WHERE state = 'running'")
      .all();
    for (const row of rows) {
      if (runningHere(row.id)) continue;
      if (row.owner_pid !== null && row.owner_pid !== process.pid && processAlive(row.owner_pid)) continue;
      this.db
        .prepare(
          "UPDATE exports SET state = 'interrupted', owner_pid = NULL, message = ? WHERE id = ? AND state = 'running'",
        )
        .run('The export was interrupted (Adbatch quit or was stopped): run it again to finish it.', row.id);
    }
  }

  /**
   * What exports placed in this folder (migration 009): what a re-run checks before rendering again. A file
   * whose warnings cannot be read is left out: the re-run renders it again and finds it by its bytes.
   */
  placedIn(destination: string): PlacedBefore[] {
    return this.db
      .prepare<[string], PlacedRow>(
        `SELECT planned_path, render_key, path, sha256, bytes, width, height, warnings
         FROM export_files WHERE destination = ?`,
      )
      .all(destination)
      .flatMap((row) => {
        const warnings = tryReadStored(storedWarnings, row.warnings, `The warnings of ${row.path}`);
        if (warnings instanceof UnreadableError) return [];
        return [
          {
            plannedPath: row.planned_path,
            renderKey: row.render_key,
            relativePath: row.path,
            sha256: row.sha256,
            bytes: row.bytes,
            width: row.width,
            height: row.height,
            warnings,
          },
        ];
      });
  }

  /** Where an export placed a file with these bytes (sha256), as an absolute path; null when none did. */
  placedWithContent(sha256: string): string | null {
    const row = this.db
      .prepare<[string], Pick<Row, 'destination'> & Pick<PlacedRow, 'path'>>(
        'SELECT destination, path FROM export_files WHERE sha256 = ? LIMIT 1',
      )
      .get(sha256);
    return row ? join(row.destination, row.path) : null;
  }

  /**
   * What exports placed at the top of their folders (a recipe's folder, a file, a zip, a manifest), as
   * absolute paths:
   * Adbatch's own, never scanned as products, even where the export folder is not Adbatch's alone.
   */
  placedAtTop(): string[] {
    const files = this.db
      .prepare<[], Pick<Row, 'destination'> & Pick<PlacedRow, 'path'>>(
        'SELECT destination, path FROM export_files',
      )
      .all();
    const manifests = this.db
      .prepare<[], Pick<Row, 'destination' | 'report'>>(
        'SELECT destination, report FROM exports WHERE report IS NOT NULL',
      )
      .all()
      .flatMap((row) =>
        (JSON.parse(row.report!) as ExportSummary).manifests.map((path) => ({
          destination: row.destination,
          path,
        })),
      );
    const top = ({ destination, path }: { destination: string; path: string }) =>
      join(destination, path.split('/')[0]!);
    return [...new Set([...files, ...manifests].map(top))];
  }

  /** A file placed (written, or found identical) under its planned name in this folder. */
  rememberPlaced(destination: string, placed: PlacedBefore): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO export_files
         (destination, planned_path, render_key, path, sha256, bytes, width, height, warnings)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        destination,
        placed.plannedPath,
        placed.renderKey,
        placed.relativePath,
        placed.sha256,
        placed.bytes,
        placed.width,
        placed.height,
        JSON.stringify(placed.warnings),
      );
  }

  /** The newest interrupted export of exactly this request, if any. */
  interruptedOf(request: string): ExportRecord | null {
    const row = this.db
      .prepare<[string], Row>(
        "SELECT * FROM exports WHERE state = 'interrupted' AND request = ? ORDER BY created_at DESC LIMIT 1",
      )
      .get(request);
    return row ? toRecord(row) : null;
  }
}
