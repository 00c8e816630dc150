import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Recipe } from '../../shared/export-recipe.ts';
import { refusalWords } from '../app/fs-refusal.ts';
import { withLegacyUpscale } from '../db/legacy-recipe.ts';
import { storedRecipesFile, tryReadStored, UnreadableError } from '../db/stored.ts';
import { writeAtomically } from '../util/write-atomically.ts';
import { BUILT_IN_RECIPES, parseRecipe, RecipeError } from './recipes.ts';

// The designer's own recipes, kept in the data folder as one JSON file (`export-recipes.json`), written
// whole and atomically. A JSON file rather than a table: recipes are settings, read whole, a handful of
// them, and a file can be copied to a colleague's data folder. A recipe the file holds that no longer
// parses (edited by hand, or from a later Adbatch) is set aside with its reason, never dropped silently; a
// file that does not parse as a whole is set aside as one entry, its text kept as it was.

export const RECIPES_FILE = 'export-recipes.json';

export interface SavedRecipes {
  recipes: Recipe[];
  /** Entries of the file that are not valid recipes, with why. */
  unreadable: Array<{ entry: unknown; reason: string }>;
}

export class RecipeStore {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, RECIPES_FILE);
  }

  async saved(): Promise<SavedRecipes> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { recipes: [], unreadable: [] };
      throw error;
    }
    const file = tryReadStored(storedRecipesFile, text, this.path);
    if (file instanceof UnreadableError)
      return { recipes: [], unreadable: [{ entry: text, reason: file.message }] };
    const result: SavedRecipes = { recipes: [], unreadable: [] };
    for (const entry of file.recipes) {
      try {
        // A recipe saved before `allowUpscale` said `size.enlarge: true`: kept as allowUpscale, not dropped.
        result.recipes.push(parseRecipe(withLegacyUpscale(entry)));
      } catch (error) {
        result.unreadable.push({ entry, reason: refusalWords(error) });
      }
    }
    return result;
  }

  /** The built-ins, then the designer's own, in the order saved. */
  async all(): Promise<Recipe[]> {
    return [...BUILT_IN_RECIPES, ...(await this.saved()).recipes];
  }

  /** Saves a recipe (a new one, or one of the same id replaced); a built-in's id or a taken name is refused. */
  async save(input: unknown): Promise<Recipe> {
    const recipe = parseRecipe(input);
    if (BUILT_IN_RECIPES.some((builtIn) => builtIn.id === recipe.id)) {
      throw new RecipeError(`"${recipe.id}" is a built-in recipe: save yours under another id.`);
    }
    const { recipes, unreadable } = await this.saved();
    const sameName = [...BUILT_IN_RECIPES, ...recipes].find(
      (other) => other.id !== recipe.id && other.name.toLowerCase() === recipe.name.toLowerCase(),
    );
    if (sameName) throw new RecipeError(`A recipe is already named "${sameName.name}".`);
    const index = recipes.findIndex((other) => other.id === recipe.id);
    if (index >= 0) recipes[index] = recipe;
    else recipes.push(recipe);
    await this.write(recipes, unreadable);
    return recipe;
  }

  /** Removes a saved recipe; says whether there was one. */
  async remove(id: string): Promise<boolean> {
    const { recipes, unreadable } = await this.saved();
    const kept = recipes.filter((recipe) => recipe.id !== id);
    if (kept.length === recipes.length) return false;
    await this.write(kept, unreadable);
    return true;
  }

  private async write(recipes: readonly Recipe[], unreadable: SavedRecipes['unreadable']): Promise<void> {
    const text = `${JSON.stringify({ recipes: [...recipes, ...unreadable.map(({ entry }) => entry)] }, null, 2)}\n`;
    await writeAtomically(this.path, (part) => writeFile(part, text));
  }
}
