import { useEffect, useState } from 'react';
import { counted, noun } from '../../../src-main/shared/counted.ts';
import type { Recipe } from '../../../src-main/shared/export-recipe.ts';
import type { ExportPlanView, ExportRequest, ExportScope } from '../../../src-main/shared/models.ts';
import type { PreflightWarning } from '../../../src-main/shared/vocabulary.ts';
import { api, messageOf } from '../api/index.ts';
import { ChoiceSelect, type SelectOption } from '../components/ChoiceSelect.tsx';
import { ModalSheet } from '../components/ModalSheet.tsx';
import { Notice } from '../components/Notice.tsx';
import { useFolderChoice } from '../components/useFolderChoice.tsx';
import { fileName } from '../format.ts';
import { type ExportChoices, type ListedRecipe, useExports } from '../stores/exports.ts';
import { ExportRun } from './ExportRun.tsx';
import { CheckField, TextField } from './FormFields.tsx';
import { LeftOut } from './LeftOut.tsx';
import { RecipeEditor, TOKENS } from './RecipeEditor.tsx';
import { recipeWords } from './recipe-words.ts';

// The export dialog (issue 13): whose results (the batch, the product in view, Review's selection), which
// recipes (several in one run; the built-ins and the designer's own, made, edited and deleted here), what goes
// out, the names, the folder (the OS's folder dialog, through main), zips and manifests; the first planned
// names and the plan's warnings per file, asked of core a moment after each change; then Start, the progress
// with Cancel, and how it ended with Reveal. A ModalSheet: Review's keys do not reach the results behind it.

/** How long the choices rest before the plan is asked again: typing a template asks once, not per key. */
const PLAN_DEBOUNCE_MS = 250;

const RULES: ReadonlyArray<SelectOption<ExportChoices['rule']>> = [
  { value: 'picked', text: 'Picked' },
  { value: 'picked-or-stars', text: 'Picked, or with stars' },
  { value: 'not-rejected', text: 'Everything not rejected' },
];

const STARS: ReadonlyArray<SelectOption<number>> = [1, 2, 3, 4, 5].map((stars) => ({
  value: stars,
  text: counted(stars, 'star'),
}));

const ZIPS: ReadonlyArray<SelectOption<ExportChoices['zip']>> = [
  { value: null, text: 'None' },
  { value: 'per-product', text: 'One per product' },
  { value: 'per-recipe', text: 'One per recipe' },
];

export interface ScopeChoice {
  key: string;
  label: string;
  scope: ExportScope;
}

function requestOf(choices: ExportChoices, scope: ExportScope, destination: string): ExportRequest {
  return {
    scope,
    recipes: choices.recipes,
    selection: {
      rule: choices.rule,
      minStars: choices.minStars,
      videos: choices.videos,
      sources: choices.sources,
    },
    ...(choices.fileTemplate.trim() ? { fileTemplate: choices.fileTemplate.trim() } : {}),
    ...(choices.folderTemplate.trim() ? { folderTemplate: choices.folderTemplate.trim() } : {}),
    destination,
    zip: choices.zip,
    manifest: choices.manifest,
    acceptWarnings: choices.acceptWarnings,
  };
}

/** The plan of `request`, asked PLAN_DEBOUNCE_MS after it last changed; an older answer never replaces a newer. */
function usePlan(request: ExportRequest | null) {
  const [plan, setPlan] = useState<ExportPlanView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [planning, setPlanning] = useState(false);
  const key = request ? JSON.stringify(request) : null;
  useEffect(() => {
    if (key === null) {
      setPlan(null);
      return;
    }
    let current = true;
    setPlanning(true);
    const timer = setTimeout(() => {
      api.call('export:plan', JSON.parse(key) as ExportRequest).then(
        (answer) => {
          if (!current) return;
          setPlan(answer);
          setError(null);
          setPlanning(false);
        },
        (failure: unknown) => {
          if (!current) return;
          setError(messageOf(failure));
          setPlanning(false);
        },
      );
    }, PLAN_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  return { plan, error, planning };
}

function RecipeList({
  recipes,
  chosen,
  onToggle,
  onEdit,
}: {
  recipes: ListedRecipe[];
  chosen: string[];
  onToggle: (id: string, on: boolean) => void;
  onEdit: (recipe: Recipe | null) => void;
}) {
  const [deleting, setDeleting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (recipe: ListedRecipe) => {
    if (!window.confirm(`Delete the recipe ${recipe.name}? Exports made with it stay as they are.`)) return;
    setDeleting(recipe.id);
    try {
      await useExports.getState().deleteRecipe(recipe.id);
    } catch (failure) {
      setError(messageOf(failure));
    }
    setDeleting(null);
  };
  return (
    <fieldset className="export-recipes">
      <legend>Recipes</legend>
      <ul>
        {recipes.map((recipe) => (
          <li key={recipe.id}>
            <CheckField checked={chosen.includes(recipe.id)} onChange={(on) => onToggle(recipe.id, on)}>
              <span>
                <strong>{recipe.name}</strong>
                {!recipe.builtIn && <span className="badge">yours</span>}
                <br />
                <small className="muted">{recipeWords(recipe)}</small>
              </span>
            </CheckField>
            {!recipe.builtIn && (
              <span className="recipe-actions">
                <button type="button" className="link" onClick={() => onEdit(recipe)}>
                  Edit<span className="visually-hidden"> {recipe.name}</span>
                </button>
                <button
                  type="button"
                  className="link"
                  disabled={deleting === recipe.id}
                  onClick={() => void remove(recipe)}
                >
                  Delete<span className="visually-hidden"> {recipe.name}</span>
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="button" onClick={() => onEdit(null)}>
        New recipe…
      </button>
    </fieldset>
  );
}

/**
 * The pre-flight up front, before the names: each error and warning kind with how many files it holds, an
 * example, and for a warning the designer's explicit "export anyway" (a checkbox per kind).
 */
function PreflightChecks({
  plan,
  accepted,
  onAccept,
}: {
  plan: ExportPlanView;
  accepted: readonly PreflightWarning[];
  onAccept: (kind: PreflightWarning, on: boolean) => void;
}) {
  if (plan.preflight.length === 0) return null;
  const errors = plan.preflight.filter((kind) => kind.severity === 'error');
  const warnings = plan.preflight.flatMap((kind) => (kind.severity === 'warning' ? [kind] : []));
  return (
    <section className="export-preflight" aria-labelledby="export-preflight-title">
      <h3 id="export-preflight-title">
        Before writing
        {plan.blocked > 0 && (
          <span className="export-blocked"> · {counted(plan.blocked, 'file')} held back</span>
        )}
      </h3>
      {errors.length > 0 && (
        <ul className="export-preflight-errors" aria-label="Errors">
          {errors.map((kind) => (
            <li key={kind.kind}>
              <strong>
                {counted(kind.files, 'file')} {kind.words}
              </strong>
              <small>{kind.example}</small>
            </li>
          ))}
        </ul>
      )}
      {warnings.length > 0 && (
        <ul className="export-preflight-warnings" aria-label="Warnings">
          {warnings.map((kind) => (
            <li key={kind.kind}>
              <CheckField checked={accepted.includes(kind.kind)} onChange={(on) => onAccept(kind.kind, on)}>
                <span>
                  <strong>
                    {counted(kind.files, 'file')} {kind.words}
                  </strong>{' '}
                  · export anyway
                  <br />
                  <small>{kind.example}</small>
                </span>
              </CheckField>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Export 12 files", or "Export 8 of 12 files" while the pre-flight holds some back. */
function exportLabel(written: number, total: number): string {
  const files = `${total.toLocaleString('en')} ${noun(total, 'file')}`;
  return written === total ? `Export ${files}` : `Export ${written.toLocaleString('en')} of ${files}`;
}

function PlanPreview({
  plan,
  error,
  planning,
  destinationChosen,
  accepted,
  onAccept,
}: {
  plan: ExportPlanView | null;
  error: string | null;
  planning: boolean;
  destinationChosen: boolean;
  accepted: readonly PreflightWarning[];
  onAccept: (kind: PreflightWarning, on: boolean) => void;
}) {
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!plan) return <p className="muted">Choose at least one recipe to see the names.</p>;
  return (
    <section className="export-preview" aria-labelledby="export-preview-title" aria-busy={planning}>
      <PreflightChecks plan={plan} accepted={accepted} onAccept={onAccept} />
      <h3 id="export-preview-title">
        {plan.total === 0
          ? 'Nothing to export with these choices'
          : `${plan.total.toLocaleString('en')} ${noun(plan.total, 'file')}`}
        {plan.warned > 0 && <span className="export-warned"> · {plan.warned} with warnings</span>}
        {destinationChosen && plan.collisions > 0 && (
          <span className="muted">
            {' '}
            · {plan.collisions} name(s) taken in the folder: those go beside, or are skipped when identical
          </span>
        )}
      </h3>
      <LeftOut sentences={plan.leftOut} />
      {plan.blocking.map((message) => (
        <Notice key={message} kind="error">
          {message}
        </Notice>
      ))}
      {plan.files.length > 0 && (
        // Scrolled by keyboard too: focusable, named for what it holds.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to scroll by keys.
        <section className="export-names" tabIndex={0} aria-label="The names planned">
          <table>
            <thead>
              <tr>
                <th scope="col">
                  {plan.total > plan.files.length ? `The first ${plan.files.length} names` : 'Names'}
                </th>
                <th scope="col">Size</th>
                <th scope="col">Checks before writing</th>
              </tr>
            </thead>
            <tbody data-testid="export-names">
              {plan.files.map((file) => (
                <tr key={`${file.recipe}:${file.path}`}>
                  <td>
                    <code>{file.path}</code>
                  </td>
                  <td className="number">{file.width > 0 ? `${file.width} × ${file.height}` : 'as is'}</td>
                  <td
                    className={
                      file.errors.length > 0
                        ? 'export-blocked'
                        : file.warnings.length > 0
                          ? 'export-warned'
                          : 'muted'
                    }
                  >
                    {[
                      ...file.errors,
                      ...file.warnings,
                      ...(destinationChosen && file.exists
                        ? ['name taken: goes beside it, or skipped if identical']
                        : []),
                    ].join(' ') || 'ok'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {plan.total > plan.files.length && (
            <p className="muted small">and {(plan.total - plan.files.length).toLocaleString('en')} more</p>
          )}
        </section>
      )}
      {plan.notices.length > 0 && (
        <ul className="export-notices">
          {plan.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
      {plan.zips.length > 0 && <p className="muted small">Zips: {plan.zips.join(', ')}</p>}
    </section>
  );
}

export function ExportDialog({ scopes, onClose }: { scopes: ScopeChoice[]; onClose: () => void }) {
  const { recipes, choices, libraryDir, remembered, setChoices } = useExports();
  const [scopeKey, setScopeKey] = useState(scopes[0]!.key);
  const [editing, setEditing] = useState<Recipe | null | false>(false);
  const [error, setError] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const scope = (scopes.find((one) => one.key === scopeKey) ?? scopes[0]!).scope;

  // The scope the dialog opened on names the client brand whose last recipes and folder it starts from.
  const opened = scopes[0]!.scope;
  // The choices are shown once that last export is read: they once showed the defaults (or the previous
  // dialog's) for an instant, and a recipe unticked in it was ticked again when the remembered ones came.
  const [recalled, setRecalled] = useState(false);
  useEffect(() => {
    setRecalled(false);
    const store = useExports.getState();
    store
      .load()
      .then(() => store.recall(opened))
      .catch((failure: unknown) => setError(messageOf(failure)))
      .finally(() => setRecalled(true));
  }, [opened]);

  // Before a folder is chosen the names are planned against the library: the same names, nothing said taken.
  const planned = choices.destination ?? libraryDir;
  const request =
    recalled && planned && choices.recipes.length > 0 && recipes.length > 0
      ? requestOf(choices, scope, planned)
      : null;
  const { plan, error: planError, planning } = usePlan(runId ? null : request);
  /** The files the export would write: the pre-flight holds back the rest (`plan.blocked`). */
  const written = plan ? plan.total - plan.blocked : 0;

  const folderChoice = useFolderChoice({
    chooseLabel: 'Export here',
    osDialog: () => api.call('dialog:openFolder'),
    onChoose: (folder) => setChoices({ destination: folder }),
  });
  const chooseFolder = () => folderChoice.choose().catch((failure: unknown) => setError(messageOf(failure)));

  const start = async () => {
    if (!choices.destination) return;
    setStarting(true);
    try {
      const started = await api.call('export:start', {
        ...requestOf(choices, scope, choices.destination),
        rememberAs: 'app',
      });
      setRunId(started.id);
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
    setStarting(false);
  };

  const toggle = (id: string, on: boolean) =>
    setChoices({ recipes: on ? [...choices.recipes, id] : choices.recipes.filter((one) => one !== id) });
  const firstRecipe = recipes.find((recipe) => recipe.id === choices.recipes[0]);
  const running = runId !== null;
  const putAside = () => {
    const { ended, choices: started } = useExports.getState();
    if (runId && ended[runId] === undefined) useExports.getState().putAside(runId, started.destination ?? '');
    onClose();
  };

  return (
    <ModalSheet
      className="export-dialog"
      labelledBy="export-title"
      // Esc on an export under way puts it aside, never cancels it: that takes its own button.
      onClose={running ? putAside : onClose}
    >
      <h2 id="export-title">Export</h2>
      {running ? (
        <ExportRun id={runId} onClose={onClose} onPutAside={putAside} />
      ) : !recalled ? (
        <div className="export-columns" aria-busy="true" />
      ) : (
        <>
          <div className="export-columns">
            <div>
              {scopes.length > 1 && (
                <fieldset className="export-scope">
                  <legend>Whose results</legend>
                  {scopes.map((one) => (
                    <label key={one.key} className="checkbox">
                      <input
                        type="radio"
                        name="export-scope"
                        checked={one.key === scopeKey}
                        onChange={() => setScopeKey(one.key)}
                      />
                      {one.label}
                    </label>
                  ))}
                </fieldset>
              )}
              {scopes.length === 1 && <p className="muted">{scopes[0]!.label}</p>}
              <fieldset className="export-what">
                <legend>What goes out</legend>
                <div className="row">
                  <ChoiceSelect
                    label="Results"
                    value={choices.rule}
                    options={RULES}
                    onChange={(rule) => setChoices({ rule })}
                  />
                  {choices.rule === 'picked-or-stars' && (
                    <ChoiceSelect
                      label="At least"
                      value={choices.minStars}
                      options={STARS}
                      onChange={(minStars) => setChoices({ minStars })}
                    />
                  )}
                </div>
                <div className="export-checks">
                  <CheckField checked={choices.videos} onChange={(videos) => setChoices({ videos })}>
                    Videos
                  </CheckField>
                  <CheckField checked={choices.sources} onChange={(sources) => setChoices({ sources })}>
                    Source photos
                  </CheckField>
                </div>
              </fieldset>
              {editing === false ? (
                <RecipeList
                  recipes={recipes}
                  chosen={choices.recipes}
                  onToggle={toggle}
                  onEdit={setEditing}
                />
              ) : (
                <RecipeEditor
                  recipe={editing}
                  onDone={(saved) => {
                    setEditing(false);
                    if (saved && !choices.recipes.includes(saved.id)) toggle(saved.id, true);
                  }}
                />
              )}
            </div>
            <div>
              <fieldset className="export-names-choice">
                <legend>Names</legend>
                <TextField
                  label="File names"
                  value={choices.fileTemplate}
                  placeholder={firstRecipe ? `${firstRecipe.fileTemplate} (each recipe's own)` : ''}
                  describedBy="export-tokens"
                  onChange={(fileTemplate) => setChoices({ fileTemplate })}
                />
                <TextField
                  label="Folders"
                  value={choices.folderTemplate}
                  placeholder={firstRecipe ? `${firstRecipe.folderTemplate} (each recipe's own)` : ''}
                  describedBy="export-tokens"
                  onChange={(folderTemplate) => setChoices({ folderTemplate })}
                />
                <p id="export-tokens" className="muted small">
                  Empty keeps each recipe's own. Tokens: {TOKENS}.
                </p>
              </fieldset>
              <fieldset className="export-where">
                <legend>Where</legend>
                <div className="export-destination">
                  <p>
                    {choices.destination && <strong>{fileName(choices.destination)}</strong>}
                    <small data-testid="export-destination">
                      {choices.destination ?? 'No folder chosen yet'}
                    </small>
                  </p>
                  <button type="button" onClick={() => void chooseFolder()}>
                    {choices.destination ? 'Change folder…' : 'Choose folder…'}
                  </button>
                </div>
                {remembered && remembered.destination === choices.destination && (
                  <p className="muted small" data-testid="export-remembered">
                    {remembered.brand ? `Your last export for ${remembered.brand}` : 'Your last export'} went
                    here.
                  </p>
                )}
                <div className="row">
                  <ChoiceSelect
                    label="Zips"
                    value={choices.zip}
                    options={ZIPS}
                    onChange={(zip) => setChoices({ zip })}
                  />
                  <CheckField
                    checked={choices.manifest.csv}
                    onChange={(csv) => setChoices({ manifest: { ...choices.manifest, csv } })}
                  >
                    Manifest CSV
                  </CheckField>
                  <CheckField
                    checked={choices.manifest.json}
                    onChange={(json) => setChoices({ manifest: { ...choices.manifest, json } })}
                  >
                    Manifest JSON
                  </CheckField>
                </div>
              </fieldset>
              <PlanPreview
                plan={request ? plan : null}
                error={request ? planError : null}
                planning={planning}
                destinationChosen={choices.destination !== null}
                accepted={choices.acceptWarnings}
                onAccept={(kind, on) =>
                  setChoices({
                    acceptWarnings: on
                      ? [...choices.acceptWarnings, kind]
                      : choices.acceptWarnings.filter((one) => one !== kind),
                  })
                }
              />
            </div>
          </div>
          {error && <Notice kind="error">{error}</Notice>}
          <div className="actions">
            {plan && plan.total > 0 && written === 0 && (
              <span className="export-nothing" role="status">
                Nothing would be written: the checks above hold back every file.
              </span>
            )}
            <button type="button" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={
                starting ||
                editing !== false ||
                !choices.destination ||
                !request ||
                planning ||
                planError !== null ||
                !plan ||
                plan.blocking.length > 0 ||
                written === 0
              }
              onClick={() => void start()}
            >
              {plan && written > 0 && choices.destination ? exportLabel(written, plan.total) : 'Export'}
            </button>
          </div>
        </>
      )}
      {folderChoice.sheet}
    </ModalSheet>
  );
}
