import { setImmediate } from 'node:timers/promises';
import { amazonIdentifier } from '../../shared/amazon-identifier.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { mapLimit } from '../util/map-limit.ts';
import { NameClaims, safeComponent } from '../util/safe-names.ts';
import { AmazonNameNotes, amazonListing, amazonNamed } from './amazon-names.ts';
import type { ExportItem } from './export-item.ts';
import { outputFraming } from './geometry.ts';
import { isIdentityToken, type MissingField, MissingFields } from './missing-fields.ts';
import {
  type NameValues,
  renderFileName,
  renderFolders,
  TEXT_TOKENS,
  type TextToken,
  usesToken,
} from './names.ts';
import {
  countCheck,
  MAX_WINDOWS_PATH,
  type PreflightCheck,
  pathCheck,
  pathLength,
  sameNameCheck,
  sizeChecks,
} from './plan-checks.ts';
import { parseRecipe } from './recipes.ts';
import { shotOnWhite } from './render.ts';
import { DEFAULT_SELECTION, leftOutOf, type Selection, selectItems } from './selection.ts';
import { extensionOf, readSourceInfo, type SourceInfo } from './source-info.ts';

// An export planned before anything is written: every file it makes, under its final relative path, from
// the results it takes times the recipes. The same inputs plan the same paths, so an interrupted export
// run again writes under the same names. Paths are unique within the plan as macOS and Windows compare
// names (safe-names.ts); a collision with a file already on disk is resolved as each file is written
// (place-file.ts), since only then are its bytes known.

export interface PlannedFile {
  /** Its position in the plan, from 0. */
  index: number;
  item: ExportItem;
  recipe: Recipe;
  /** `/` between components, safe on every file system, unique within the plan. */
  relativePath: string;
  /** The result's number within its product for this recipe and kind, from 1. */
  n: number;
  /** The file's extension, without its dot: what it is encoded as. */
  ext: string;
  /** A video's are its source's (0 when unknown); one made for a channel gets its frame when it is made. */
  width: number;
  height: number;
  /** Output pixels per source pixel: above 1 only where the recipe allows upscaling (geometry.ts). */
  scale: number;
  /**
   * The output is the source's bytes, unchanged: a video its recipe does not make for a channel, a result
   * in the Original recipe (the downloaded bytes exactly), or a source photo in an Original that keeps the
   * source's metadata.
   */
  copy: boolean;
  /** What the plan knows before rendering: the size against the channel's, the enlargement, the path. */
  checks: PreflightCheck[];
}

export interface PlanNotice {
  product: string;
  message: string;
}

export interface ExportPlan {
  /** Frozen copies of the recipes as they were when the export started: a later edit does not leak in. */
  recipes: readonly Recipe[];
  files: readonly PlannedFile[];
  /** Empty name tokens and the like, once per product and recipe. */
  notices: readonly PlanNotice[];
  /** Products whose names a recipe needs a field of that they lack: their files are not planned (missing-fields.ts). */
  missing: readonly MissingField[];
  /** What the scope's results the export leaves out, and why, in words (selection.ts `leftOutOf`). */
  leftOut: readonly string[];
}

export interface PlanRequest {
  items: readonly ExportItem[];
  recipes: readonly unknown[];
  selection?: Selection;
  /** `{date}`: the export's day, YYYY-MM-DD, fixed by the caller so that a resumed export keeps its names. */
  date: string;
  /**
   * The export folder, absolute: a name is cut in its middle to keep the whole path under Windows' 260
   * characters, and a path still too long is a pre-flight error. Without it, paths are not measured.
   */
  destination?: string;
  /** How a source's size and format are read (its header, by default). */
  readInfo?: (file: string, kind: ExportItem['kind']) => Promise<SourceInfo>;
  /** Whether a shot's own edges are pure white (its pixels, by default): where Amazon's main image is chosen. */
  onWhite?: (item: ExportItem) => Promise<boolean>;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * Whose results `{n}` and a recipe's first or other shots count: a product's, or where Amazon matches files
 * by SKU, the SKU's across the whole export (two batches of one product: one MAIN, then PT01 on). Compared
 * in capitals, as a file system that ignores case would compare the names.
 */
function numberedAs(item: ExportItem, recipe: Recipe): string {
  const listing = amazonNamed(recipe) ? amazonListing(item.sku) : null;
  return listing ? `sku:${listing}` : item.productKey;
}

/**
 * The main shot of each group a first-or-rest recipe splits (`numberedAs`), by its item's key: its first
 * pick, or for Amazon's names its first pick on white. Amazon takes a main image only on pure white, and a
 * product whose first pick was a scene on a coloured ground once had its MAIN held back (and the listing
 * none) while a later pick on white went out as PT01. The same for the main and the additional recipes,
 * exported together or apart: chosen from the shots' own pixels, not a recipe's output.
 */
async function mainShots(
  items: readonly ExportItem[],
  recipes: readonly Recipe[],
  onWhite: (item: ExportItem) => Promise<boolean>,
): Promise<{ mains: Map<string, string>; notices: PlanNotice[] }> {
  // Each group's shots in order, and whether its main is chosen by white (the same group is the same for
  // every recipe that numbers by it).
  const groups = new Map<string, { shots: ExportItem[]; byWhite: boolean }>();
  for (const recipe of recipes) {
    if (recipe.shots === 'all' || !recipe.kinds.includes('shot')) continue;
    const grouped = new Set(groups.keys());
    for (const item of items) {
      const name = numberedAs(item, recipe);
      if (item.kind !== 'shot' || grouped.has(name)) continue;
      const group = groups.get(name) ?? { shots: [], byWhite: amazonNamed(recipe) };
      group.shots.push(item);
      groups.set(name, group);
    }
  }
  // A few groups at a time, each shot decoded only until one is on white.
  const chosen = await mapLimit([...groups.values()], 4, async ({ shots, byWhite }) => {
    for (const shot of byWhite ? shots : []) if (await onWhite(shot)) return shot;
    return shots[0]!;
  });
  const mains = new Map<string, string>();
  const notices: PlanNotice[] = [];
  [...groups].forEach(([name, { shots }], index) => {
    const main = chosen[index]!;
    mains.set(name, main.key);
    if (main === shots[0]) return;
    // Said, so that a MAIN other than the first pick is not a surprise.
    const listing = amazonIdentifier(main.sku) ?? main.product;
    notices.push({
      product: main.product,
      message: `${listing}'s main image is shot ${main.shot} of ${main.product}, its first pick on white (Amazon takes a main image only on white); the picks before it go with the others.`,
    });
  });
  return { mains, notices };
}

/** Which of a product's shots a recipe takes, and their numbers; `mains` names each group's main shot. */
function takenByRecipe(
  items: readonly ExportItem[],
  recipe: Recipe,
  mains: ReadonlyMap<string, string>,
): Array<{ item: ExportItem; n: number }> {
  const taken: Array<{ item: ExportItem; n: number }> = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!recipe.kinds.includes(item.kind)) continue;
    const numbered = numberedAs(item, recipe);
    const split = item.kind === 'shot' && recipe.shots !== 'all';
    if (split) {
      const main = mains.get(numbered) === item.key;
      if (recipe.shots === 'first') {
        if (main) taken.push({ item, n: 1 });
        continue;
      }
      if (main) continue;
    }
    const group = `${numbered}\u0000${item.kind}`;
    const position = (seen.get(group) ?? 0) + 1;
    seen.set(group, position);
    taken.push({ item, n: position });
  }
  return taken;
}

const tokensOfRecipe = new WeakMap<Recipe, TextToken[]>();

/** The text tokens the recipe's templates name that are empty for these values. */
function emptyTokensUsed(recipe: Recipe, values: NameValues): TextToken[] {
  let used = tokensOfRecipe.get(recipe);
  if (!used) {
    used = TEXT_TOKENS.filter(
      (token) => usesToken(recipe.fileTemplate, token) || usesToken(recipe.folderTemplate, token),
    );
    tokensOfRecipe.set(recipe, used);
  }
  return used.filter((token) => values[token].trim() === '');
}

/** Room for a file's name that keeps the whole path under 260 characters, with room for a ` (2)`. */
const SUFFIX_ROOM = 4;
/** A name cut shorter than this says too little: the path is an error instead. */
const SHORTEST_CUT = 24;

/** The file name, cut in its middle where the whole path would pass Windows' limit. */
function fittedName(fileName: string, destination: string | undefined, folders: readonly string[]): string {
  if (destination === undefined) return fileName;
  const room = MAX_WINDOWS_PATH - 1 - pathLength(destination, [...folders, ''].join('/')) - SUFFIX_ROOM;
  if (fileName.length <= room || room < SHORTEST_CUT) return fileName;
  return safeComponent(fileName, 'file', { maxLength: room, cut: 'middle' });
}

export async function planExport(request: PlanRequest): Promise<ExportPlan> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(request.date))
    throw new Error(`The export date "${request.date}" is not YYYY-MM-DD.`);
  const recipes = request.recipes.map((recipe) => deepFreeze(parseRecipe(structuredClone(recipe))));
  const selection = request.selection ?? DEFAULT_SELECTION;
  const items = selectItems(request.items, selection);
  const readInfo = request.readInfo ?? readSourceInfo;
  const infos = new Map<string, Promise<SourceInfo>>();
  const infoOf = (item: ExportItem) => {
    let info = infos.get(item.key);
    if (!info) {
      info = readInfo(item.file, item.kind);
      infos.set(item.key, info);
    }
    return info;
  };

  // Headers read a few at a time up front, not one by one in the loop below.
  await mapLimit(items, 8, infoOf);
  const { mains, notices: mainNotices } = await mainShots(items, recipes, request.onWhite ?? shotOnWhite);
  const claims = new NameClaims();
  const files: PlannedFile[] = [];
  const notices: PlanNotice[] = [];
  const noticed = new Set<string>();
  const missing = new MissingFields();
  const amazonNames = new AmazonNameNotes();
  for (const recipe of recipes) {
    const amazon = amazonNamed(recipe);
    for (const { item, n } of takenByRecipe(items, recipe, mains)) {
      const info = await infoOf(item);
      const original = recipe.format.type === 'original' && recipe.size.kind === 'original';
      // A video is copied as it is unless the recipe makes it for a channel (video-make.ts).
      const copy =
        (item.kind === 'video' && !recipe.video) ||
        (item.kind !== 'video' && original && (item.kind !== 'source' || recipe.metadata.keepSource));
      const size = copy
        ? { width: info.width, height: info.height, scale: 1 }
        : outputFraming(recipe.size, info, recipe.allowUpscale);
      const identifier = amazon ? amazonIdentifier(item.sku) : null;
      if (amazon && item.sku.trim() !== '' && identifier === null) {
        missing.note(recipe, item, 'sku', item.sku);
        continue;
      }
      if (identifier !== null) amazonNames.note(item, identifier);
      const values: NameValues = {
        brand: item.brand,
        product: item.product,
        sku: identifier ?? item.sku,
        handle: item.handle,
        title: item.title,
        style: item.style,
        recipe: recipe.name,
        date: request.date,
        batch: item.batch,
        ext:
          item.kind === 'video' ? (recipe.video ? 'mp4' : info.ext) : extensionOf(recipe.format.type, info),
        shot: item.shot,
        n,
        stars: item.stars,
        w: size.width,
        h: size.height,
      };
      const empty = emptyTokensUsed(recipe, values);
      const lacking = empty.filter(isIdentityToken);
      for (const token of lacking) missing.note(recipe, item, token);
      if (lacking.length > 0) continue;
      for (const token of empty) {
        const key = `${recipe.id}\u0000${item.productKey}\u0000${token}`;
        if (noticed.has(key)) continue;
        noticed.add(key);
        notices.push({
          product: item.product,
          message: `{${token}} is empty for "${item.product}" in ${recipe.name}.`,
        });
      }
      const folders = renderFolders(recipe.folderTemplate, values).map((folder) =>
        safeComponent(folder, 'folder', { cut: 'middle' }),
      );
      const file = fittedName(
        safeComponent(renderFileName(recipe.fileTemplate, values), 'file', { cut: 'middle' }),
        request.destination,
        folders,
      );
      const index = files.length;
      // A plan of thousands of files gives the event loop a turn now and then.
      if (index % 500 === 499) await setImmediate();
      const wanted = [...folders, file].join('/');
      const relativePath = claims.claim(wanted, String(index));
      const checks = sizeChecks(recipe, item.kind, info, size);
      // Two files of one export under one Amazon name (a recipe of the designer's that names every shot
      // MAIN): the second would be a ` (2)` Amazon's bulk upload drops.
      if (amazon && relativePath !== wanted) checks.push(sameNameCheck(recipe, wanted));
      const tooMany = countCheck(recipe, n, amazon ? values.sku : item.product);
      if (tooMany) checks.push(tooMany);
      const tooLong = request.destination === undefined ? null : pathCheck(request.destination, relativePath);
      if (tooLong) checks.push(tooLong);
      files.push({
        index,
        item,
        recipe,
        relativePath,
        n,
        ext: values.ext,
        width: size.width,
        height: size.height,
        scale: size.scale,
        copy,
        checks,
      });
    }
  }
  return {
    recipes,
    files,
    notices: [...mainNotices, ...notices, ...amazonNames.notices()],
    missing: missing.list(),
    leftOut: leftOutOf(request.items, selection, recipes),
  };
}
