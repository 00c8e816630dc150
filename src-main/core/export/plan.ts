import { setImmediate } from 'node:timers/promises';
import type { Recipe } from '../../shared/export-recipe.ts';
import { mapLimit } from '../util/map-limit.ts';
import { NameClaims, safeComponent } from '../util/safe-names.ts';
import type { ExportItem } from './export-item.ts';
import { outputDimensions } from './geometry.ts';
import {
  type NameValues,
  renderFileName,
  renderFolders,
  TEXT_TOKENS,
  type TextToken,
  usesToken,
} from './names.ts';
import { parseRecipe } from './recipes.ts';
import { DEFAULT_SELECTION, type Selection, selectItems } from './selection.ts';
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
  /**
   * The output is the source's bytes, unchanged: a video its recipe does not make for a channel, or an
   * Original that keeps the source's metadata.
   */
  copy: boolean;
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
}

export interface PlanRequest {
  items: readonly ExportItem[];
  recipes: readonly unknown[];
  selection?: Selection;
  /** `{date}`: the export's day, YYYY-MM-DD, fixed by the caller so that a resumed export keeps its names. */
  date: string;
  /** How a source's size and format are read (its header, by default). */
  readInfo?: (file: string, kind: ExportItem['kind']) => Promise<SourceInfo>;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Which of a product's shots a recipe takes, and their numbers. */
function takenByRecipe(items: readonly ExportItem[], recipe: Recipe): Array<{ item: ExportItem; n: number }> {
  const taken: Array<{ item: ExportItem; n: number }> = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    if (!recipe.kinds.includes(item.kind)) continue;
    const group = `${item.productKey}\u0000${item.kind}`;
    const position = (seen.get(group) ?? 0) + 1;
    seen.set(group, position);
    if (item.kind === 'shot' && recipe.shots === 'first' && position > 1) continue;
    if (item.kind === 'shot' && recipe.shots === 'rest' && position === 1) continue;
    taken.push({ item, n: item.kind === 'shot' && recipe.shots === 'rest' ? position - 1 : position });
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

export async function planExport(request: PlanRequest): Promise<ExportPlan> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(request.date))
    throw new Error(`The export date "${request.date}" is not YYYY-MM-DD.`);
  const recipes = request.recipes.map((recipe) => deepFreeze(parseRecipe(structuredClone(recipe))));
  const items = selectItems(request.items, request.selection ?? DEFAULT_SELECTION);
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
  const claims = new NameClaims();
  const files: PlannedFile[] = [];
  const notices: PlanNotice[] = [];
  const noticed = new Set<string>();
  for (const recipe of recipes) {
    for (const { item, n } of takenByRecipe(items, recipe)) {
      const info = await infoOf(item);
      // A video is copied as it is unless the recipe makes it for a channel (video-make.ts).
      const copy =
        (item.kind === 'video' && !recipe.video) ||
        (recipe.format.type === 'original' && recipe.size.kind === 'original' && recipe.metadata.keepSource);
      const size = copy ? { width: info.width, height: info.height } : outputDimensions(recipe.size, info);
      const values: NameValues = {
        brand: item.brand,
        product: item.product,
        sku: item.sku,
        handle: item.handle,
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
      for (const token of emptyTokensUsed(recipe, values)) {
        const key = `${recipe.id}\u0000${item.productKey}\u0000${token}`;
        if (noticed.has(key)) continue;
        noticed.add(key);
        notices.push({
          product: item.product,
          message: `{${token}} is empty for "${item.product}" in ${recipe.name}.`,
        });
      }
      const folders = renderFolders(recipe.folderTemplate, values).map((folder) =>
        safeComponent(folder, 'folder'),
      );
      const file = safeComponent(renderFileName(recipe.fileTemplate, values), 'file');
      const index = files.length;
      // A plan of thousands of files gives the event loop a turn now and then.
      if (index % 500 === 499) await setImmediate();
      const relativePath = claims.claim([...folders, file].join('/'), String(index));
      files.push({
        index,
        item,
        recipe,
        relativePath,
        n,
        ext: values.ext,
        width: size.width,
        height: size.height,
        copy,
      });
    }
  }
  return { recipes, files, notices };
}
