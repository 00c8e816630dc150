import { z } from 'zod';
import type { ExportFront } from '../../shared/vocabulary.ts';
import type { Db } from '../db/open.ts';
import { tryReadStored, UnreadableError } from '../db/stored.ts';

// What each front end last exported for each client brand (migration 018): the recipes and the folder,
// written when an export starts. The app and the CLI each keep their own, so that a folder given to
// `adbatch export --to` does not silently become the app's; a front end may read another's when the user
// says so (`--to last-app`). Batches billed to no brand share the key '' (NO_BRAND).

export const NO_BRAND = '';

export interface LastChoice {
  recipes: string[];
  destination: string;
  chosenAt: number;
}

const storedRecipeIds = z.array(z.string().min(1)).min(1);

interface Row {
  recipes: string;
  destination: string;
  chosen_at: number;
}

export class LastExportChoices {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  /** The front end's last choice for the brand ('' for none); null when it has not exported for it yet. */
  get(brandKey: string, front: ExportFront): LastChoice | null {
    const row = this.db
      .prepare<[string, string], Row>(
        'SELECT recipes, destination, chosen_at FROM export_last_choice WHERE brand_key = ? AND front = ?',
      )
      .get(brandKey, front);
    if (!row) return null;
    const recipes = tryReadStored(storedRecipeIds, row.recipes, `the last ${front} export's recipes`);
    // A memory that no longer reads is a memory lost, not a fault: the front end asks as on a first export.
    if (recipes instanceof UnreadableError) return null;
    return { recipes, destination: row.destination, chosenAt: row.chosen_at };
  }

  remember(brandKey: string, front: ExportFront, choice: { recipes: string[]; destination: string }): void {
    this.db
      .prepare(
        `INSERT INTO export_last_choice (brand_key, front, recipes, destination, chosen_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (brand_key, front) DO UPDATE SET
           recipes = excluded.recipes, destination = excluded.destination, chosen_at = excluded.chosen_at`,
      )
      .run(brandKey, front, JSON.stringify(choice.recipes), choice.destination, this.now());
  }
}
