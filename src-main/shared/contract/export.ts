import { z } from 'zod';
import { type Recipe, recipeSchema } from '../export-recipe.ts';
import type {
  ExportDetail,
  ExportLastChoiceView,
  ExportPlanView,
  ExportRecipesView,
  ExportView,
} from '../models.ts';
import { EXPORT_FRONTS, PREFLIGHT_WARNINGS } from '../vocabulary.ts';
import { absolutePath, channel, id, none } from './channel.ts';
import { batchId } from './queue.ts';
import { product, resultId, stars } from './review.ts';

// Picked results to the files each channel wants (core/export/).

const exportScope = z
  .object({
    batchIds: z.array(batchId).min(1).max(10_000).optional(),
    product,
    resultIds: z.array(resultId).min(1).max(100_000).optional(),
  })
  .partial({ product: true })
  .strict()
  .refine((scope) => (scope.batchIds === undefined) !== (scope.product === undefined), {
    message: 'names batches or a product, not both',
  })
  .refine((scope) => !scope.resultIds || scope.product !== undefined || scope.batchIds?.length === 1, {
    message: 'a selection of results is of one batch or one product',
    path: ['resultIds'],
  });

const exportRequest = z
  .object({
    scope: exportScope,
    recipes: z.array(z.string().trim().min(1).max(100)).min(1).max(50),
    selection: z
      .object({
        rule: z.enum(['picked', 'picked-or-stars', 'not-rejected']),
        minStars: stars,
        videos: z.boolean(),
        sources: z.boolean(),
      })
      .partial()
      .strict()
      .optional(),
    fileTemplate: z.string().min(1).max(400).optional(),
    folderTemplate: z.string().max(400).optional(),
    destination: absolutePath,
    zip: z.enum(['per-product', 'per-recipe']).nullable().optional(),
    // `bom`: the CSV manifest starts with UTF-8's byte-order mark (for Excel); absent, the preference's.
    manifest: z
      .object({ csv: z.boolean(), json: z.boolean(), bom: z.boolean().optional() })
      .strict()
      .optional(),
    /**
     * The pre-flight warnings to write anyway, per kind ("export anyway"): a file with a warning of a kind
     * not listed is held back with the reason, as a file with a pre-flight error always is.
     */
    acceptWarnings: z.array(z.enum(PREFLIGHT_WARNINGS)).max(PREFLIGHT_WARNINGS.length).optional(),
    /** The front end starting it: its recipes and folder become that front end's last for the brand. */
    rememberAs: z.enum(EXPORT_FRONTS).optional(),
  })
  .strict();

export const exportChannels = {
  /** The export recipes: the built-ins, then the designer's own. */
  'export:recipes': channel<ExportRecipesView>()(none),
  /** Saves one of the designer's recipes (a new one, or one of the same id replaced). */
  'export:saveRecipe': channel<Recipe>()(recipeSchema),
  'export:deleteRecipe': channel<null>()(id),
  /** What an export would write, under which names, with what the plan can already warn about; nothing written. */
  'export:plan': channel<ExportPlanView>()(exportRequest),
  /**
   * Starts an export from a snapshot of its settings (recipes, results, date); the same request as an
   * interrupted export resumes that one, under the same names; the same request as one this process is
   * starting or running is that one (a second click, an agent's retry), never a second run. Answers what
   * it leaves out and what its plan says before writing (`export:plan`'s notices).
   */
  'export:start': channel<{ id: string; resumed: boolean; leftOut: string[]; notices: string[] }>()(
    exportRequest,
  ),
  /**
   * What a front end last exported for the brand the scope's batches are billed to (recipes and folder),
   * null when it has not yet: each front end has its own unless told to take another's.
   */
  'export:lastChoice': channel<ExportLastChoiceView | null>()(
    z.object({ scope: exportScope, from: z.enum(EXPORT_FRONTS) }).strict(),
  ),
  /** Runs an interrupted export again: what was finished is found and not written twice. */
  'export:resume': channel<ExportView>()(id),
  /** Stops an export: what it finished stays, what it half-wrote goes. */
  'export:cancel': channel<ExportView>()(id),
  /** Recent exports, newest first, with their state. */
  'export:list': channel<ExportView[]>()(none),
  'export:get': channel<ExportDetail>()(id),
};

/** What only a desktop does with exports: its dialogs, its file manager, dragging files out. */
export const exportDesktopChannels = {
  /** Gives up an interrupted export: it is no longer offered; what it finished stays, its half-written files go. */
  'export:discard': channel<null>()(id),
  /** The OS dialog to choose the folder an export goes into (one it may create); null when cancelled. */
  'dialog:openFolder': channel<string | null>()(none),
  /** Shows an export in Finder / Explorer / the file manager: its manifest selected in its folder. */
  'export:reveal': channel<null>()(id),
  /**
   * Drags Review's results out of the window (to the desktop, Finder, Explorer, Photoshop): all of them, the
   * files as they are, or made through a recipe first. Sent from the page's `dragstart`.
   */
  'export:drag': channel<{ files: number }>()(
    z
      .object({
        scope: z
          .object({
            batchIds: z.array(batchId).length(1),
            product,
            resultIds: z.array(resultId).min(1).max(10_000),
          })
          .partial({ batchIds: true, product: true })
          .strict()
          .refine((scope) => (scope.batchIds === undefined) !== (scope.product === undefined), {
            message: 'names a batch or a product, not both',
          }),
        recipe: z.string().trim().min(1).max(100).optional(),
      })
      .strict(),
  ),
};
