import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { describeFsFailure } from '../app/fs-refusal.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import type { NewProduct } from '../queue/types.ts';
import { mapLimit } from '../util/map-limit.ts';
import { sweepStaleParts } from '../util/stale-parts.ts';
import { AdbatchFolders, adbatchSkip, markedAbove, realKey } from './adbatch-folders.ts';
import {
  type CatalogProduct,
  type CatalogRead,
  isCatalogFile,
  readCatalog,
  workbookAdvice,
} from './catalog-file.ts';
import {
  type CheckResult,
  type ContentMemo,
  checkPhoto,
  type FileRef,
  type IngestCache,
} from './check-photo.ts';
import { compareNatural, DEFAULT_GROUP_PATTERN, groupBySku, parseGroupPattern, skuOf } from './group.ts';
import { MAX_PHOTOS_PER_PRODUCT } from './limits.ts';
import { outsideReason } from './outside-links.ts';
import type { OwnContent } from './own-content.ts';
import { checkRemotePhoto, type RemoteCheck } from './remote-photo.ts';
import type {
  DroppedProduct,
  IngestPlan,
  NestedFolder,
  PlannedPhoto,
  PlannedProduct,
  Problem,
} from './types.ts';
import { uniqueNamer } from './unique-names.ts';
import { fileRef, junkReason, walkFolder } from './walk.ts';

// Whatever was dropped (folders nested to any depth, loose files, catalogs) becomes the ingest plan: the
// products with their checked photos, hero first, and every file turned away with its reason. Nothing is
// spent or uploaded; the only writes are thumbnails and converted copies in the cache.

export interface ScanOptions {
  /** Thumbnails and converted copies, keyed by content hash (the library's `.adbatch` folder). */
  cacheDir: string;
  /** How loose photos are grouped into products (default DEFAULT_GROUP_PATTERN). */
  pattern?: RegExp | string;
  /** Photos checked at once (default: twice the cores, since reads and decodes overlap). */
  concurrency?: number;
  /**
   * A folder of photos inside another folder of photos (`linen-shirt/detail/`): a product of its own (the
   * default, as every folder of photos is) or part of the folder above's product.
   */
  subfolders?: 'own' | 'parent';
  /** The folders Adbatch wrote, known by path (its marks are found as the folders are read). */
  adbatch?: AdbatchFolders;
  /** The photos Adbatch downloaded or exported, known by their bytes wherever they were copied. */
  ownContent?: OwnContent;
  /** Photos and catalog URLs checked so far, of all there are to check. */
  onProgress?: (progress: { checked: number; total: number }) => void;
  /** Stops the scan between checks: it rejects with the signal's reason, and nothing is planned. */
  signal?: AbortSignal;
  /** Which catalog URLs may be fetched (default: public addresses only, no host allowed by name). */
  outbound?: OutboundPolicy;
}

interface Source {
  /** The folder the product's photos came from (or the loose files' folder). */
  sourceDir: string;
  /** How problems about the whole product name it: its folder, or folder/SKU when a folder was split. */
  label: string;
  /** Relative to the dropped folder. */
  path: string;
  name: string;
  files: FileRef[];
}

type Checked = { file: FileRef; result: CheckResult };

function photoOf(entry: Checked & { result: { ok: true } }): PlannedPhoto {
  const { photo, sendPath } = entry.result;
  return {
    file: entry.file.display,
    path: sendPath,
    url: null,
    width: photo.width,
    height: photo.height,
    hash: photo.hash,
    format: photo.format,
    thumbnail: photo.thumbnail,
    converted: photo.converted,
    realPath: entry.file.realPath ?? null,
  };
}

/** Keeps the first of each photo, in order, and the first eight; says what was left out. */
function finishPhotos(product: string, photos: PlannedPhoto[], problems: Problem[]): PlannedPhoto[] {
  const unique: PlannedPhoto[] = [];
  const firstByKey = new Map<string, PlannedPhoto>();
  for (const photo of photos) {
    const key = photo.hash ?? photo.url ?? photo.file;
    const first = firstByKey.get(key);
    if (first) {
      problems.push({
        file: photo.file,
        reason: `the same photo as ${basename(first.file)}: used once`,
        severity: 'warning',
        code: 'duplicate',
      });
      continue;
    }
    firstByKey.set(key, photo);
    unique.push(photo);
  }
  if (unique.length > MAX_PHOTOS_PER_PRODUCT) {
    problems.push({
      file: product,
      reason: `${unique.length} photos: only the first ${MAX_PHOTOS_PER_PRODUCT} are used (${unique
        .slice(MAX_PHOTOS_PER_PRODUCT)
        .map((photo) => basename(photo.file))
        .join(', ')} left out)`,
      severity: 'warning',
      code: 'too_many_photos',
    });
  }
  return unique.slice(0, MAX_PHOTOS_PER_PRODUCT);
}

function problemOf(file: FileRef, result: CheckResult & { ok: false }): Problem {
  // A stray document beside the photos is not a mistake; a file dressed as a photo that is not one is.
  const claimsImage = /\.(jpe?g|png|webp|gif|tiff?|hei[cf]|avif|bmp|svg)$/i.test(file.display);
  const severity = result.code === 'not_an_image' && !claimsImage ? 'warning' : 'error';
  return { file: file.display, reason: result.reason, severity, code: result.code };
}

/**
 * Records each folder of photos that sits inside another (its nearest such ancestor) and, with `parent`,
 * moves its files into that ancestor's source: deepest first, so a chain ends in its topmost folder.
 */
function placeSubfolders(sources: Source[], subfolders: 'own' | 'parent', nested: NestedFolder[]): void {
  const depth = (source: Source) => source.sourceDir.split(sep).length;
  const byDepth = [...sources].sort((a, b) => depth(b) - depth(a));
  for (const source of byDepth) {
    const parent = byDepth
      .filter((other) => other !== source && source.sourceDir.startsWith(other.sourceDir + sep))
      .sort((a, b) => depth(b) - depth(a))[0];
    if (!parent) continue;
    const folder = source.path || basename(source.sourceDir);
    nested.push({
      folder,
      parent: parent.path || basename(parent.sourceDir),
      merged: subfolders === 'parent',
    });
    if (subfolders === 'parent') {
      parent.files.push(...source.files);
      sources.splice(sources.indexOf(source), 1);
    }
  }
  nested.sort((a, b) => compareNatural(a.folder, b.folder));
}

/** A folder none of whose photos could be used, and why. */
function droppedOf(source: Source, results: ReadonlyMap<FileRef, CheckResult>): DroppedProduct {
  const reasons = source.files.map((file) => {
    const result = results.get(file);
    return result && !result.ok ? result.reason : 'not usable';
  });
  return {
    name: basename(source.sourceDir),
    folder: source.path || basename(source.sourceDir),
    reasons: [...new Set(reasons)],
  };
}

/** Products of one folder: one, or several when the file names carry several SKUs. */
function folderSources(
  folder: string,
  rel: string,
  files: FileRef[],
  pattern: RegExp,
  loose: boolean,
): Source[] {
  const name = (path: string) => basename(path);
  const sorted = [...files].sort((a, b) => compareNatural(name(a.display), name(b.display)));
  const groups = groupBySku(sorted, (file) => name(file.display), pattern);
  if (!groups) {
    const only = loose
      ? (skuOf(name(sorted[0]!.display), pattern) ??
        basename(sorted[0]!.display, extname(sorted[0]!.display)))
      : basename(folder);
    return [
      {
        sourceDir: folder,
        label: loose ? join(folder, only) : folder,
        path: loose ? only : rel || basename(folder),
        name: only,
        files: sorted,
      },
    ];
  }
  return groups.map((group) => ({
    sourceDir: folder,
    label: join(folder, group.key),
    path: rel ? join(rel, group.key) : group.key,
    name: group.key,
    files: group.items,
  }));
}

type ScannedCatalog =
  | { file: string; entries: CatalogProduct[]; warnings: CatalogRead['warnings'] }
  | { file: string; error: string };

async function readCatalogs(files: readonly string[]): Promise<ScannedCatalog[]> {
  return Promise.all(
    files.map((file) =>
      readCatalog(file).then(
        ({ products, warnings }) => ({ file, entries: products, warnings }),
        // The problem names the file already: its reason is said without it again.
        (error: Error) => ({
          file,
          error: error.message.startsWith(`${file}: `) ? error.message.slice(file.length + 2) : error.message,
        }),
      ),
    ),
  );
}

/** A catalog's products, from the checks of every catalog URL (each checked once, whatever its rows). */
function catalogProducts(
  read: ScannedCatalog,
  checks: ReadonlyMap<string, RemoteCheck>,
  problems: Problem[],
): PlannedProduct[] {
  if ('error' in read) {
    problems.push({ file: read.file, reason: read.error, severity: 'error', code: 'bad_catalog' });
    return [];
  }
  const { file, entries, warnings } = read;
  for (const { code, reason } of warnings) problems.push({ file, reason, severity: 'warning', code });
  const products: PlannedProduct[] = [];
  for (const entry of entries) {
    const photos: PlannedPhoto[] = [];
    for (const url of entry.urls) {
      const check = checks.get(url)!;
      if (!check.ok) {
        problems.push({
          file: url,
          place: `${basename(file)}, ${entry.places[url]}`,
          reason: check.reason,
          severity: 'error',
          code: check.code,
        });
        continue;
      }
      photos.push({
        file: url,
        path: null,
        url,
        width: check.width,
        height: check.height,
        hash: null,
        format: null,
        thumbnail: null,
        converted: null,
        realPath: null,
      });
    }
    const kept = finishPhotos(entry.name, photos, problems);
    if (kept.length === 0) {
      problems.push({ file: entry.name, reason: 'no usable photos', severity: 'error', code: 'no_photos' });
      continue;
    }
    products.push({
      name: entry.name,
      path: entry.key,
      sourceDir: file,
      photos: kept,
      identity: entry.identity,
    });
  }
  return products;
}

export async function scanInputs(inputs: readonly string[], options: ScanOptions): Promise<IngestPlan> {
  const pattern =
    options.pattern instanceof RegExp
      ? options.pattern
      : parseGroupPattern(options.pattern ?? DEFAULT_GROUP_PATTERN);
  const concurrency = options.concurrency ?? Math.max(2, availableParallelism() * 2);
  const cache: IngestCache = { dir: options.cacheDir };
  // What a killed write left among the thumbnails and converted copies (check-photo.ts).
  await sweepStaleParts(options.cacheDir, ['thumbnails', 'prepared']);
  const adbatch = options.adbatch ?? AdbatchFolders.none;
  const plan: IngestPlan = { products: [], problems: [], skipped: [], nested: [], dropped: [] };
  const sources: Source[] = [];
  const looseByFolder = new Map<string, FileRef[]>();
  const catalogs: string[] = [];

  for (const input of inputs) {
    const path = resolve(input);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error) {
      plan.problems.push({
        file: path,
        reason: info.code === 'ENOENT' ? 'no such file or folder' : (describeFsFailure(info) ?? info.message),
        severity: 'error',
        code: 'missing_input',
      });
      continue;
    }
    // One of Adbatch's folders, or a folder or photo inside one, dropped itself.
    const real = await realKey(path);
    const inAdbatch = (real === null ? null : adbatch.around(real)) ?? (await markedAbove(path));
    if (inAdbatch) {
      plan.skipped.push(adbatchSkip(path, inAdbatch));
      continue;
    }
    const workbook = info.isDirectory() ? null : workbookAdvice(path);
    if (info.isDirectory()) {
      const walk = await walkFolder(path, adbatch);
      plan.problems.push(...walk.problems);
      plan.skipped.push(...walk.skipped);
      for (const folder of walk.folders) {
        if (folder.files.length > 0)
          sources.push({
            sourceDir: folder.folder.display,
            label: folder.folder.display,
            path: folder.rel,
            name: '',
            files: folder.files,
          });
      }
    } else if (isCatalogFile(path)) {
      catalogs.push(path);
    } else if (workbook) {
      plan.problems.push({ file: path, reason: workbook, severity: 'error', code: 'bad_catalog' });
    } else {
      const junk = junkReason(basename(path), false);
      if (junk) plan.skipped.push({ file: path, reason: junk });
      else
        looseByFolder.set(dirname(path), [
          ...(looseByFolder.get(dirname(path)) ?? []),
          fileRef(Buffer.from(path)),
        ]);
    }
  }

  placeSubfolders(sources, options.subfolders ?? 'own', plan.nested);
  const files = [...sources.flatMap((source) => source.files), ...[...looseByFolder.values()].flat()];
  const catalogReads = await readCatalogs(catalogs);
  const urls = [
    ...new Set(
      catalogReads.flatMap((read) => ('entries' in read ? read.entries : []).flatMap((e) => e.urls)),
    ),
  ];
  const total = files.length + urls.length;
  const memo: ContentMemo = new Map();
  let checked = 0;
  options.signal?.throwIfAborted();
  options.onProgress?.({ checked, total });
  const checkedOne = () => {
    options.signal?.throwIfAborted();
    options.onProgress?.({ checked: ++checked, total });
  };
  const results = new Map<FileRef, CheckResult>();
  await mapLimit(files, concurrency, async (file) => {
    results.set(file, await checkPhoto(file, cache, memo));
    checkedOne();
  });
  const checks = new Map<string, RemoteCheck>();
  await mapLimit(urls, concurrency, async (url) => {
    checks.set(url, await checkRemotePhoto(url, options.outbound ?? { allowedHosts: [] }));
    checkedOne();
  });

  /** The designer's photos: a copy of a result or an export of Adbatch's is passed over in its own line. */
  const notOwn = (list: FileRef[]) =>
    list.filter((file) => {
      const result = results.get(file)!;
      const own = result.ok ? options.ownContent?.(result.photo.hash) : null;
      if (own) plan.skipped.push({ file: file.display, reason: own.reason, adbatchFolder: own.kind });
      return !own;
    });
  const accepted = (list: FileRef[]) =>
    list.filter((file) => {
      const result = results.get(file)!;
      if (!result.ok) plan.problems.push(problemOf(file, result));
      return result.ok;
    });
  const grouped: Source[] = [
    ...sources.flatMap((source) => {
      const designers = notOwn(source.files);
      // A folder of Adbatch's files alone is said in their lines, not as a product dropped.
      if (designers.length === 0) return [];
      const ok = accepted(designers);
      if (ok.length === 0) plan.dropped.push(droppedOf({ ...source, files: designers }, results));
      return ok.length > 0 ? folderSources(source.sourceDir, source.path, ok, pattern, false) : [];
    }),
    ...[...looseByFolder].flatMap(([folder, list]) => {
      const ok = accepted(notOwn(list));
      return ok.length > 0 ? folderSources(folder, '', ok, pattern, true) : [];
    }),
  ];

  const unique = uniqueNamer();
  for (const source of grouped) {
    const photos: PlannedPhoto[] = [];
    for (const file of source.files) {
      const entry = { file, result: results.get(file)! } as Checked & { result: { ok: true } };
      if (file.realPath) {
        plan.problems.push({
          file: file.display,
          reason: outsideReason(file.realPath),
          severity: 'warning',
          code: 'outside_link',
        });
      }
      for (const warning of entry.result.photo.warnings) {
        plan.problems.push({
          file: file.display,
          reason: warning.reason,
          severity: 'warning',
          code: warning.code,
        });
      }
      photos.push(photoOf(entry));
    }
    plan.products.push({
      name: unique(source.name),
      path: source.path,
      sourceDir: source.sourceDir,
      photos: finishPhotos(source.label, photos, plan.problems),
    });
  }
  for (const read of catalogReads) {
    for (const product of catalogProducts(read, checks, plan.problems)) {
      plan.products.push({ ...product, name: unique(product.name) });
    }
  }
  return plan;
}

/** The plan with another photo as the hero (the user's pick); the rest keep their order. */
export function withHero(product: PlannedProduct, index: number): PlannedProduct {
  const hero = product.photos[index];
  if (!hero) throw new Error(`${product.name} has no photo number ${index + 1}`);
  return { ...product, photos: [hero, ...product.photos.filter((_, i) => i !== index)] };
}

/** What the queue keeps of a planned product. */
export function toNewProduct(product: PlannedProduct): NewProduct {
  return {
    name: product.name,
    sourceDir: product.sourceDir,
    path: product.path,
    photos: product.photos.map((photo) => ({
      path: photo.path,
      url: photo.url,
      source: photo.file,
      hash: photo.hash,
      width: photo.width,
      height: photo.height,
    })),
    ...(product.identity ? { identity: product.identity } : {}),
  };
}
