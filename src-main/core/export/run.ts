import { createHash, webcrypto } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { ExportCounts, ExportFileStatus } from '../../shared/models.ts';
import type { PreflightWarning } from '../../shared/vocabulary.ts';
import { refusalWords } from '../app/fs-refusal.ts';
import { sha256OfFile } from '../util/file-sha256.ts';
import { type LocalFault, localFaultOf } from '../util/local-fault.ts';
import { makeFolders } from '../util/make-folders.ts';
import { NameClaims } from '../util/safe-names.ts';
import { amazonNamed } from './amazon-names.ts';
import { describeExportFault } from './export-fault.ts';
import { newPartPath, removeStaleParts } from './export-parts.ts';
import { type ManifestRow, manifestCsv, manifestJson } from './manifest.ts';
import { type Content, NameTakenError, placeFile, sameBytes } from './place-file.ts';
import { type PlacedBefore, renderKey } from './placed-before.ts';
import type { ExportPlan, PlannedFile } from './plan.ts';
import { blockingReasons, type PreflightCheck } from './plan-checks.ts';
import { fileChecks } from './preflight.ts';
import { type DecodedSource, decodeSource, renderFile } from './render.ts';
import { keptChangedNote } from './replaced-note.ts';
import { videoChannelRules } from './video-channels.ts';
import { makeChannelVideo } from './video-make.ts';
import { videoPreflight } from './video-preflight.ts';

// An export run: the plan's files written into a folder, each source decoded once for all its recipes,
// a few sources at a time. A run stops cleanly: on cancel (what was finished stays, what was half-written
// goes), and on a full disk or a folder it may not write (the same, with the reason in words). A run of
// the same plan into the same folder writes only what is missing, under the same names: that is how an
// interrupted export resumes. The recipes were frozen when the plan was made (plan.ts), so a setting
// changed while a run goes does not leak into it.

export interface ExportProgress extends ExportCounts {
  elapsedMs: number;
}

export interface FileOutcome {
  planned: PlannedFile;
  /** Where it is: the planned path, or beside it with a suffix when a file that is not ours had the name. */
  relativePath: string;
  status: ExportFileStatus;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  warnings: string[];
  /** Why a failed file failed (a source that could not be read). */
  error?: string;
  /** What its bytes follow from (placed-before.ts): kept by the caller to skip it next time. */
  renderKey?: string;
}

export interface ExportReport {
  status: 'done' | 'cancelled' | 'stopped';
  /** For a stopped run: what happened and what to do. */
  message?: string;
  fault?: LocalFault;
  /** In plan order; files not reached are missing. */
  files: FileOutcome[];
  written: number;
  identical: number;
  failed: number;
  bytesWritten: number;
  /** The manifests' relative paths (a done run only). */
  manifests: string[];
  /** The manifests as placed, for the caller to record: the next run into the folder replaces them. */
  manifestsPlaced: PlacedBefore[];
}

export interface ExportOptions {
  plan: ExportPlan;
  /** The export folder, absolute. */
  destination: string;
  /**
   * Sources decoded at a time; each holds its decoded pixels (a 4K RGB result: 48 MB). By default one a
   * core, two to four: on Linux sharp gives each image one libvips thread (`sharp.concurrency()` is 1 on
   * glibc), so the sources at a time are what fills the cores; past four they would queue on libuv's four
   * threads, which the hashing and the file writes use too.
   */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /** `bom`: the CSV manifest starts with UTF-8's byte-order mark (for Excel). */
  manifest?: { csv: boolean; json: boolean; bom?: boolean };
  /** What earlier runs placed in this folder: a file still there as they left it is not rendered again. */
  placedBefore?: readonly PlacedBefore[];
  /** Each file as it is finished, in the order they finish. */
  onFile?: (outcome: FileOutcome) => void;
  /**
   * The pre-flight warnings written anyway ("export anyway", per kind): a file with a warning of another
   * kind is held back with the reason, as a file with an error always is (plan-checks.ts).
   */
  acceptWarnings?: readonly PreflightWarning[];
  now?: () => number;
}

const DEFAULT_CONCURRENCY = Math.min(4, Math.max(2, availableParallelism()));

type Stop = { status: 'cancelled' } | { status: 'stopped'; fault: LocalFault };

function groupBySource(files: readonly PlannedFile[]): PlannedFile[][] {
  const groups = new Map<string, PlannedFile[]>();
  for (const file of files) {
    const group = groups.get(file.item.key);
    if (group) group.push(file);
    else groups.set(file.item.key, [file]);
  }
  return [...groups.values()];
}

interface Made {
  content: Content;
  size: number;
  sha256: string;
  width: number;
  height: number;
  /** The checks of the bytes and pixels made, besides the plan's. */
  checks: PreflightCheck[];
  /** Warnings that never hold a file back: a video's, copied as it is (video-preflight.ts). */
  notes: string[];
}

/** A source's bytes copied: `sha256` is the source's, read once for its render key. */
async function copied(file: PlannedFile, sha256: string): Promise<Made> {
  const source = file.item.file;
  const { size } = await stat(source);
  if (file.item.kind === 'video') {
    // Its container, codecs, size and duration read from the file (video-preflight.ts).
    const { facts, warnings } = await videoPreflight(file.recipe, source, size);
    const frame = facts?.video ?? file;
    return {
      content: { copyFrom: source },
      size,
      sha256,
      width: frame.width,
      height: frame.height,
      checks: [],
      notes: warnings,
    };
  }
  const metadata = await sharp(source).metadata();
  const checks = fileChecks(file.recipe, {
    ...file,
    bytes: size,
    space: metadata.space,
    icc: metadata.icc ?? null,
  });
  return {
    content: { copyFrom: source },
    size,
    sha256,
    width: file.width,
    height: file.height,
    checks,
    notes: [],
  };
}

/** A video made for its recipe's channel, written straight into the file's `.part` (video-make.ts). */
async function madeForChannel(
  file: PlannedFile,
  destination: string,
  signal: AbortSignal | undefined,
  onProgress: (fraction: number) => void,
): Promise<Made> {
  const output = newPartPath(destination, file.relativePath);
  await makeFolders(dirname(output));
  const rules = videoChannelRules(file.recipe)!;
  const { warnings, ...made } = await makeChannelVideo({ file, rules, output, signal, onProgress });
  // A made video that failed its channel's spec was refused in video-make.ts; what it passed with are notes.
  return { ...made, content: { partReady: output }, checks: [], notes: warnings };
}

async function rendered(decoded: DecodedSource, file: PlannedFile): Promise<Made> {
  const output = await renderFile(decoded, file);
  const metadata = await sharp(output.bytes).metadata();
  const facts = { ...output, bytes: output.bytes.length, space: metadata.space, icc: metadata.icc ?? null };
  return {
    content: { bytes: output.bytes },
    size: output.bytes.length,
    sha256: await sha256OffThread(output.bytes),
    width: output.width,
    height: output.height,
    checks: [...output.checks, ...fileChecks(file.recipe, facts)],
    notes: [],
  };
}

/** WebCrypto hashes on libuv's threads: a 2K JPEG's megabyte is not hashed on the event loop. */
async function sha256OffThread(bytes: Buffer): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/**
 * A file's row. A result's credits are stated on its first row only (`stated` holds the results already
 * given theirs): a result three recipes wrote is paid for once, so the column sums to the export's cost.
 */
function manifestRow(outcome: FileOutcome, stated: Set<string>): ManifestRow {
  const { item, recipe } = outcome.planned;
  const first = !stated.has(item.key);
  stated.add(item.key);
  return {
    brand: item.brand,
    product: item.product,
    sku: item.sku,
    sourcePhotos: item.sourcePhotos,
    recipe: recipe.name,
    path: outcome.relativePath,
    width: outcome.width,
    height: outcome.height,
    bytes: outcome.bytes,
    sha256: outcome.sha256,
    jobId: item.jobId,
    style: item.style,
    credits: first ? item.credits : null,
    stars: item.stars,
    flag: item.flag,
  };
}

export async function runExport(options: ExportOptions): Promise<ExportReport> {
  const { plan, destination, signal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const claims = new NameClaims();
  // Every planned name is this run's before anything is written, so a file moved aside by a stranger's
  // file never takes the name another file of the run was planned under.
  for (const file of plan.files) claims.tryClaim(file.relativePath, String(file.index));
  // What a killed run left half-written goes before anything else (another export's under way stays).
  await removeStaleParts(
    destination,
    plan.files.map((file) => file.relativePath),
  );

  const outcomes: Array<FileOutcome | undefined> = new Array(plan.files.length);
  const counts = { done: 0, written: 0, identical: 0, failed: 0, bytesWritten: 0 };
  let stop: Stop | null = null;

  let lastPath = '';
  const progress = (making?: ExportProgress['making']) => {
    const elapsedMs = now() - started;
    options.onProgress?.({
      ...counts,
      total: plan.files.length,
      elapsedMs,
      etaMs:
        counts.done === 0 ? null : Math.round((elapsedMs / counts.done) * (plan.files.length - counts.done)),
      path: lastPath,
      ...(making ? { making } : {}),
    });
  };

  const finish = (outcome: FileOutcome) => {
    outcomes[outcome.planned.index] = outcome;
    options.onFile?.(outcome);
    counts.done++;
    counts[outcome.status]++;
    if (outcome.status === 'written') counts.bytesWritten += outcome.bytes;
    lastPath = outcome.relativePath;
    progress();
  };

  const interrupted = (error: unknown): boolean => {
    if (signal?.aborted) {
      stop ??= { status: 'cancelled' };
      return true;
    }
    const fault = localFaultOf(error);
    if (fault) {
      stop ??= { status: 'stopped', fault };
      return true;
    }
    return false;
  };

  const accepted = new Set(options.acceptWarnings ?? []);
  /** A file not written: held back by the pre-flight, or failed while it was made or placed. */
  const failed = (file: PlannedFile, error: string, warnings: string[]) =>
    finish({
      planned: file,
      relativePath: file.relativePath,
      status: 'failed',
      width: 0,
      height: 0,
      bytes: 0,
      sha256: '',
      warnings,
      error,
    });
  const held = (file: PlannedFile, reasons: string[], checks: readonly PreflightCheck[]) =>
    failed(
      file,
      `Not written (pre-flight): ${reasons.join(' ')}`,
      checks.map((check) => check.message),
    );

  const before = new Map(options.placedBefore?.map((placed) => [placed.plannedPath, placed]));
  /** What an earlier run placed for this planned path: replaced when still as it left it (place-file.ts). */
  const oursFor = (plannedPath: string) => {
    const placed = before.get(plannedPath);
    return placed ? { ours: placed } : {};
  };
  /** The earlier run's file, when it was made from the same inputs and is still there, unchanged. */
  const stillPlaced = async (file: PlannedFile, key: string): Promise<PlacedBefore | null> => {
    const placed = before.get(file.relativePath);
    if (!placed || placed.renderKey !== key) return null;
    if (!claims.tryClaim(placed.relativePath, String(file.index))) return null;
    // A file it cannot read now is rendered and placed as any other, which says why if it fails.
    const there = await sameBytes(join(destination, placed.relativePath), placed.bytes, placed.sha256).catch(
      () => false,
    );
    return there ? placed : null;
  };

  const exportSource = async (group: PlannedFile[]) => {
    let decoded: Promise<DecodedSource> | null = null;
    let sourceSha256: Promise<string> | null = null;
    for (const file of group) {
      if (stop || signal?.aborted) break;
      let made: Made;
      let key: string;
      try {
        sourceSha256 ??= sha256OfFile(file.item.file);
        key = await renderKey(file, await sourceSha256);
        const placed = await stillPlaced(file, key);
        if (placed) {
          finish({
            planned: file,
            relativePath: placed.relativePath,
            status: 'identical',
            width: placed.width,
            height: placed.height,
            bytes: placed.bytes,
            sha256: placed.sha256,
            warnings: placed.warnings,
            renderKey: key,
          });
          continue;
        }
        const planReasons = blockingReasons(file.checks, accepted);
        if (planReasons.length > 0) {
          held(file, planReasons, file.checks);
          continue;
        }
        if (file.copy) made = await copied(file, await sourceSha256);
        else if (file.item.kind === 'video') {
          made = await madeForChannel(file, destination, signal, (fraction) =>
            progress({ path: file.relativePath, fraction }),
          );
        } else {
          // Decoded once for all of this source's recipes; a source that cannot be decoded fails each once.
          decoded ??= decodeSource(file.item.file);
          made = await rendered(await decoded, file);
        }
      } catch (error) {
        if (signal?.aborted) {
          stop ??= { status: 'cancelled' };
          break;
        }
        failed(file, `${file.item.file} could not be exported: ${refusalWords(error)}`, []);
        continue;
      }
      const checks = [...file.checks, ...made.checks];
      const reasons = blockingReasons(made.checks, accepted);
      if (reasons.length > 0) {
        held(file, reasons, checks);
        continue;
      }
      try {
        const placed = await placeFile({
          root: destination,
          plannedPath: file.relativePath,
          content: made.content,
          size: made.size,
          sha256: made.sha256,
          claims,
          owner: String(file.index),
          signal,
          ...oursFor(file.relativePath),
          exactName: amazonNamed(file.recipe),
        });
        finish({
          planned: file,
          relativePath: placed.relativePath,
          status: placed.status,
          width: made.width,
          height: made.height,
          bytes: made.size,
          sha256: made.sha256,
          warnings: [
            ...checks.map((check) => check.message),
            ...made.notes,
            ...(placed.keptChanged ? [keptChangedNote(placed.keptChanged, placed.relativePath)] : []),
          ],
          renderKey: key,
        });
      } catch (error) {
        if (error instanceof NameTakenError) {
          failed(
            file,
            error.message,
            checks.map((check) => check.message),
          );
          continue;
        }
        if (interrupted(error)) break;
        throw error;
      }
    }
  };

  const groups = groupBySource(plan.files);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!stop && !failure && !signal?.aborted && next < groups.length) {
      const group = groups[next++]!;
      try {
        await exportSource(group);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(
    Array.from(
      { length: Math.max(1, Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, groups.length)) },
      worker,
    ),
  );
  if (failure) throw (failure as { error: unknown }).error;
  if (!stop && signal?.aborted) stop = { status: 'cancelled' };

  const files = outcomes.filter((outcome): outcome is FileOutcome => outcome !== undefined);
  const manifests: string[] = [];
  const manifestsPlaced: PlacedBefore[] = [];
  if (!stop && options.manifest && (options.manifest.csv || options.manifest.json)) {
    const stated = new Set<string>();
    const rows = files
      .filter((outcome) => outcome.status !== 'failed')
      .map((outcome) => manifestRow(outcome, stated));
    const sheets: Array<[string, string]> = [];
    if (options.manifest.csv)
      sheets.push(['manifest.csv', manifestCsv(rows, { bom: options.manifest.bom ?? false })]);
    if (options.manifest.json) sheets.push(['manifest.json', manifestJson(rows)]);
    for (const [name, text] of sheets) {
      const bytes = Buffer.from(text, 'utf8');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      try {
        const placed = await placeFile({
          root: destination,
          plannedPath: name,
          content: { bytes },
          size: bytes.length,
          sha256,
          claims,
          owner: name,
          ...oursFor(name),
        });
        manifests.push(placed.relativePath);
        manifestsPlaced.push({
          plannedPath: name,
          renderKey: sha256,
          relativePath: placed.relativePath,
          sha256,
          bytes: bytes.length,
          width: 0,
          height: 0,
          warnings: [],
        });
      } catch (error) {
        if (!interrupted(error)) throw error;
        break;
      }
    }
  }

  const report: ExportReport = {
    status: stop?.status ?? 'done',
    files,
    written: counts.written,
    identical: counts.identical,
    failed: counts.failed,
    bytesWritten: counts.bytesWritten,
    manifests,
    manifestsPlaced,
  };
  const stopped = stop as Stop | null;
  if (stopped?.status === 'stopped') {
    report.fault = stopped.fault;
    report.message = describeExportFault(stopped.fault, destination, counts.written + counts.identical);
  }
  return report;
}
