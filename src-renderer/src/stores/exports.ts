import { create } from 'zustand';
import type { Recipe, RecipeInput } from '../../../src-main/shared/export-recipe.ts';
import type {
  ExportLastChoiceView,
  ExportProgressView,
  ExportRecipesView,
  ExportScope,
  ExportTally,
  ExportView,
} from '../../../src-main/shared/models.ts';
import type { ExportState, PreflightWarning } from '../../../src-main/shared/vocabulary.ts';
import { api } from '../api/index.ts';

// Exports in the renderer: the recipes (built-in and the designer's own), each export's latest progress and
// how it ended (from core's `export:progress` and `export:changed` events, at most ten a second per export),
// the exports a quit or a kill interrupted (offered again at start), what the export dialog was last set to
// (its recipes and folder: the app's last export for the client brand, kept by core, issue 31),
// the recipe Review's results are dragged out through, and the exports put aside to run while the designer
// works on (as Lightroom's exports run behind its window, their progress in a corner).

/** How an export ended: its state and what it wrote. */
export type ExportEnded = { state: ExportState } & ExportTally;

/** A recipe as the dialog lists it: the built-ins marked as such. */
export type ListedRecipe = ExportRecipesView['recipes'][number];

/** What the export dialog was last set to: it opens the same way again within the session. */
export interface ExportChoices {
  /** Recipe ids, in the order they run. */
  recipes: string[];
  rule: 'picked' | 'picked-or-stars' | 'not-rejected';
  minStars: number;
  videos: boolean;
  sources: boolean;
  /** '' keeps each recipe's own template. */
  fileTemplate: string;
  folderTemplate: string;
  destination: string | null;
  zip: 'per-product' | 'per-recipe' | null;
  manifest: { csv: boolean; json: boolean };
  /** The pre-flight warnings written anyway ("export anyway", a checkbox per kind). */
  acceptWarnings: PreflightWarning[];
}

export const DEFAULT_CHOICES: ExportChoices = {
  recipes: ['original'],
  rule: 'picked',
  minStars: 3,
  videos: true,
  sources: false,
  fileTemplate: '',
  folderTemplate: '',
  destination: null,
  zip: null,
  manifest: { csv: true, json: true },
  acceptWarnings: [],
};

interface ExportsState {
  recipes: ListedRecipe[];
  /** Saved recipes that no longer read, with why. */
  unreadable: string[];
  /** The platform main runs on (app:info): what "reveal" is called. */
  platform: string;
  /** The library folder: where a plan is asked about before an export folder is chosen. */
  libraryDir: string | null;
  choices: ExportChoices;
  /** The app's last export for the brand of the batches the dialog opened on: its recipes and folder. */
  remembered: ExportLastChoiceView | null;
  progress: Record<string, ExportProgressView>;
  /** How each export ended, with what it wrote (core's `export:changed`). */
  ended: Record<string, ExportEnded>;
  /** Exports a quit or a kill interrupted, offered again (and those resumed from the offer, until closed). */
  offered: ExportView[];
  /** Through which recipe (id) Review's results are dragged out; null: the files as they are. */
  dragRecipe: string | null;
  /** Exports started in the dialog and put aside while they run (the sidebar follows them), oldest first. */
  aside: Array<{ id: string; destination: string }>;
  /** The export put aside that is shown again in a sheet, if any. */
  shownAside: string | null;
  load(): Promise<void>;
  /**
   * The dialog's recipes and folder as the app last exported the scope's client brand (the defaults for a
   * brand it has not exported), unless the designer changed them while this was asked. After `load`.
   */
  recall(scope: ExportScope): Promise<void>;
  setChoices(change: Partial<ExportChoices>): void;
  saveRecipe(recipe: RecipeInput): Promise<Recipe>;
  deleteRecipe(id: string): Promise<void>;
  loadOffered(): Promise<void>;
  resume(id: string): Promise<void>;
  discard(id: string): Promise<void>;
  dismiss(id: string): void;
  setDragRecipe(id: string | null): void;
  putAside(id: string, destination: string): void;
  showAside(id: string | null): void;
  /** An export put aside, seen to its end and closed: no longer followed in the sidebar. */
  forgetAside(id: string): void;
  /** Follows core's export events; answers the unsubscribe. */
  listen(): () => void;
}

export const useExports = create<ExportsState>((set, get) => ({
  recipes: [],
  unreadable: [],
  platform: '',
  libraryDir: null,
  choices: DEFAULT_CHOICES,
  remembered: null,
  progress: {},
  ended: {},
  offered: [],
  dragRecipe: null,
  aside: [],
  shownAside: null,
  async load() {
    const [view, info] = await Promise.all([api.call('export:recipes'), api.call('app:info')]);
    const known = new Set(view.recipes.map((recipe) => recipe.id));
    const { choices } = get();
    set({
      recipes: view.recipes,
      unreadable: view.unreadable.map((entry) => entry.reason),
      platform: info.platform,
      libraryDir: info.libraryDir,
      choices: { ...choices, recipes: choices.recipes.filter((id) => known.has(id)) },
    });
  },
  async recall(scope) {
    const asked = get().choices;
    const remembered = await api.call('export:lastChoice', { scope, from: 'app' });
    set({ remembered });
    if (get().choices !== asked) return;
    // Never the CLI's folder, nor another brand's: this brand's last export from the app, or none yet.
    // A recipe deleted since is left out (called after `load`, the recipes there are are known).
    const known = new Set(get().recipes.map((recipe) => recipe.id));
    get().setChoices({
      recipes: (remembered?.recipes ?? DEFAULT_CHOICES.recipes).filter((id) => known.has(id)),
      destination: remembered?.destination ?? null,
    });
  },
  setChoices(change) {
    set({ choices: { ...get().choices, ...change } });
  },
  async saveRecipe(recipe) {
    const saved = await api.call('export:saveRecipe', recipe);
    const view = await api.call('export:recipes');
    set({ recipes: view.recipes });
    return saved;
  },
  async deleteRecipe(id) {
    await api.call('export:deleteRecipe', { id });
    const view = await api.call('export:recipes');
    const { choices, dragRecipe } = get();
    set({
      recipes: view.recipes,
      choices: { ...choices, recipes: choices.recipes.filter((one) => one !== id) },
      dragRecipe: dragRecipe === id ? null : dragRecipe,
    });
  },
  async loadOffered() {
    const recent = await api.call('export:list');
    set({ offered: recent.filter((view) => view.resumable) });
  },
  async resume(id) {
    // Its earlier ending forgotten before it runs again: the next one is this run's.
    const { [id]: _ended, ...ended } = get().ended;
    set({ ended });
    const view = await api.call('export:resume', { id });
    set({ offered: get().offered.map((one) => (one.id === id ? view : one)) });
  },
  async discard(id) {
    await api.call('export:discard', { id });
    get().dismiss(id);
  },
  dismiss(id) {
    set({ offered: get().offered.filter((one) => one.id !== id) });
  },
  setDragRecipe(id) {
    set({ dragRecipe: id });
  },
  putAside(id, destination) {
    const { aside } = get();
    if (!aside.some((one) => one.id === id)) set({ aside: [...aside, { id, destination }] });
  },
  showAside(id) {
    set({ shownAside: id });
  },
  forgetAside(id) {
    const { aside, shownAside } = get();
    set({ aside: aside.filter((one) => one.id !== id), shownAside: shownAside === id ? null : shownAside });
  },
  listen() {
    const offProgress = api.on('export:progress', (view) =>
      set({ progress: { ...get().progress, [view.id]: view } }),
    );
    const offChanged = api.on('export:changed', ({ id, ...ending }) =>
      set({ ended: { ...get().ended, [id]: ending } }),
    );
    return () => {
      offProgress();
      offChanged();
    };
  },
}));
