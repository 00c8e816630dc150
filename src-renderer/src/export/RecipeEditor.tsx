import { useState } from 'react';
import type { ExportRecipe, ExportRecipeInput } from '../../../src-main/shared/models.ts';
import { messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { useExports } from '../stores/exports.ts';
import { recipeIdFor } from './recipe-words.ts';

// One of the designer's own recipes, new or edited: format and quality, size, metadata, the file-name and
// folder templates, and the checks before a file is written. Core checks it with the recipe schema and says
// what is wrong in words, shown here as it is.

type FormatType = ExportRecipe['format']['type'];
type SizeKind = ExportRecipe['size']['kind'];
type Fit = 'pad' | 'crop' | 'inside';

interface Draft {
  name: string;
  format: FormatType;
  quality: number;
  size: SizeKind;
  longEdge: number;
  width: number;
  height: number;
  fit: Fit;
  padColour: string;
  keepSource: boolean;
  rating: boolean;
  title: boolean;
  aiSource: boolean;
  fileTemplate: string;
  folderTemplate: string;
  minLongEdge: string;
  maxMegabytes: string;
}

const DEFAULT_QUALITY: Record<FormatType, number> = { original: 90, jpeg: 90, png: 90, webp: 82, avif: 55 };

export const TOKENS =
  '{brand} {product} {sku} {handle} {style} {shot} {n} {n:03} {stars} {w} {h} {recipe} {date} {batch} {ext}';

function draftOf(recipe: ExportRecipe | null): Draft {
  const size = recipe?.size;
  return {
    name: recipe?.name ?? '',
    format: recipe?.format.type ?? 'jpeg',
    quality: recipe && 'quality' in recipe.format ? recipe.format.quality : 90,
    size: size?.kind ?? 'long-edge',
    longEdge: size?.kind === 'long-edge' ? size.px : 2000,
    width: size?.kind === 'exact' ? size.width : 1080,
    height: size?.kind === 'exact' ? size.height : 1080,
    fit: size?.kind === 'exact' ? size.fit : 'pad',
    padColour: size?.kind === 'exact' ? size.padColour : '#ffffff',
    keepSource: recipe?.metadata.keepSource ?? false,
    rating: recipe?.metadata.rating ?? true,
    title: recipe?.metadata.title ?? true,
    aiSource: recipe?.metadata.aiSource ?? true,
    fileTemplate: recipe?.fileTemplate ?? '{product}-{n:02}.{ext}',
    folderTemplate: recipe?.folderTemplate ?? '{recipe}',
    minLongEdge: recipe?.preflight.minLongEdge ? String(recipe.preflight.minLongEdge) : '',
    maxMegabytes: recipe?.preflight.maxBytes ? String(recipe.preflight.maxBytes / (1024 * 1024)) : '',
  };
}

function recipeOf(draft: Draft, id: string, base: ExportRecipe | null): ExportRecipeInput {
  const format =
    draft.format === 'original' || draft.format === 'png'
      ? { type: draft.format }
      : { type: draft.format, quality: draft.quality };
  const size =
    draft.size === 'original'
      ? { kind: 'original' as const }
      : draft.size === 'long-edge'
        ? { kind: 'long-edge' as const, px: draft.longEdge }
        : {
            kind: 'exact' as const,
            width: draft.width,
            height: draft.height,
            fit: draft.fit,
            padColour: draft.padColour,
          };
  const minLongEdge = Number(draft.minLongEdge);
  const maxMegabytes = Number(draft.maxMegabytes);
  return {
    ...(base ?? {}),
    id,
    name: draft.name.trim(),
    format: format as ExportRecipeInput['format'],
    size,
    metadata: {
      keepSource: draft.keepSource,
      rating: draft.rating,
      title: draft.title,
      aiSource: draft.aiSource,
    },
    fileTemplate: draft.fileTemplate,
    folderTemplate: draft.folderTemplate,
    preflight: {
      ...(base?.preflight ?? {}),
      minLongEdge: draft.minLongEdge && minLongEdge > 0 ? Math.round(minLongEdge) : undefined,
      maxBytes: draft.maxMegabytes && maxMegabytes > 0 ? Math.round(maxMegabytes * 1024 * 1024) : undefined,
    },
  };
}

export function RecipeEditor({
  recipe,
  onDone,
}: {
  /** The recipe edited; null for a new one. */
  recipe: ExportRecipe | null;
  /** The recipe saved, or null when the editor was closed without saving. */
  onDone: (saved: ExportRecipe | null) => void;
}) {
  const recipes = useExports((state) => state.recipes);
  const [draft, setDraft] = useState(() => draftOf(recipe));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (next: Partial<Draft>) => setDraft({ ...draft, ...next });
  const hasQuality = draft.format !== 'original' && draft.format !== 'png';
  // The source file as it is, metadata and all, only where nothing is re-encoded (the recipe schema's rule).
  const canKeepSource = draft.format === 'original' && draft.size === 'original';

  const save = async () => {
    setBusy(true);
    try {
      const id =
        recipe?.id ??
        recipeIdFor(
          draft.name,
          recipes.map((one) => one.id),
        );
      const saved = await useExports
        .getState()
        .saveRecipe(recipeOf({ ...draft, keepSource: canKeepSource && draft.keepSource }, id, recipe));
      onDone(saved);
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  return (
    <fieldset className="recipe-editor">
      <legend>{recipe ? `Edit ${recipe.name}` : 'New recipe'}</legend>
      <div className="row">
        <label>
          Recipe name
          <input
            type="text"
            value={draft.name}
            maxLength={80}
            onChange={(event) => change({ name: event.target.value })}
          />
        </label>
        <label>
          Format
          <select
            value={draft.format}
            onChange={(event) => {
              const format = event.target.value as FormatType;
              change({ format, quality: DEFAULT_QUALITY[format] });
            }}
          >
            <option value="original">Same as the result</option>
            <option value="jpeg">JPEG</option>
            <option value="png">PNG</option>
            <option value="webp">WebP</option>
            <option value="avif">AVIF</option>
          </select>
        </label>
        {hasQuality && (
          <label>
            Quality
            <input
              type="number"
              min={1}
              max={100}
              value={draft.quality}
              onChange={(event) => change({ quality: Number(event.target.value) })}
            />
          </label>
        )}
      </div>
      <div className="row">
        <label>
          Size
          <select value={draft.size} onChange={(event) => change({ size: event.target.value as SizeKind })}>
            <option value="original">Original size</option>
            <option value="long-edge">Long edge</option>
            <option value="exact">Exact width × height</option>
          </select>
        </label>
        {draft.size === 'long-edge' && (
          <label>
            Long edge (px)
            <input
              type="number"
              min={16}
              max={20000}
              value={draft.longEdge}
              onChange={(event) => change({ longEdge: Number(event.target.value) })}
            />
          </label>
        )}
        {draft.size === 'exact' && (
          <>
            <label>
              Width (px)
              <input
                type="number"
                min={16}
                max={20000}
                value={draft.width}
                onChange={(event) => change({ width: Number(event.target.value) })}
              />
            </label>
            <label>
              Height (px)
              <input
                type="number"
                min={16}
                max={20000}
                value={draft.height}
                onChange={(event) => change({ height: Number(event.target.value) })}
              />
            </label>
            <label>
              Fit
              <select value={draft.fit} onChange={(event) => change({ fit: event.target.value as Fit })}>
                <option value="pad">Whole image, padded</option>
                <option value="crop">Fill the frame, cropped</option>
                <option value="inside">Whole image, no padding</option>
              </select>
            </label>
            {draft.fit === 'pad' && (
              <label>
                Padding
                <input
                  type="color"
                  value={draft.padColour}
                  onChange={(event) => change({ padColour: event.target.value })}
                />
              </label>
            )}
          </>
        )}
      </div>
      <fieldset className="row recipe-metadata">
        <legend>Metadata</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={canKeepSource && draft.keepSource}
            disabled={!canKeepSource}
            onChange={(event) => change({ keepSource: event.target.checked })}
          />
          Keep the source file as it is, EXIF and GPS included (same format, original size only)
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.rating}
            onChange={(event) => change({ rating: event.target.checked })}
          />
          Stars as XMP rating
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.title}
            onChange={(event) => change({ title: event.target.checked })}
          />
          Product as title
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.aiSource}
            onChange={(event) => change({ aiSource: event.target.checked })}
          />
          Mark AI-made results (IPTC digital source type)
        </label>
      </fieldset>
      <div className="row">
        <label className="wide">
          File name template
          <input
            type="text"
            value={draft.fileTemplate}
            onChange={(event) => change({ fileTemplate: event.target.value })}
            aria-describedby="recipe-tokens"
          />
        </label>
        <label className="wide">
          Folder template
          <input
            type="text"
            value={draft.folderTemplate}
            onChange={(event) => change({ folderTemplate: event.target.value })}
            aria-describedby="recipe-tokens"
          />
        </label>
      </div>
      <p id="recipe-tokens" className="muted small">
        Tokens: {TOKENS}. A / in the folder makes a folder inside.
      </p>
      <div className="row">
        <label>
          Warn below (px, long edge)
          <input
            type="number"
            min={1}
            value={draft.minLongEdge}
            onChange={(event) => change({ minLongEdge: event.target.value })}
          />
        </label>
        <label>
          Warn above (MB)
          <input
            type="number"
            min={0}
            step="0.1"
            value={draft.maxMegabytes}
            onChange={(event) => change({ maxMegabytes: event.target.value })}
          />
        </label>
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <div className="actions">
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || !draft.name.trim()}
          onClick={() => void save()}
        >
          Save recipe
        </button>
      </div>
    </fieldset>
  );
}
