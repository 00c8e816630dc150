import { useState } from 'react';
import type { Recipe } from '../../../src-main/shared/export-recipe.ts';
import { VIDEO_CHANNELS } from '../../../src-main/shared/vocabulary.ts';
import { VIDEO_CHANNEL_WORDS } from '../../../src-main/shared/words.ts';
import { messageOf } from '../api/index.ts';
import { ChoiceSelect, type SelectOption } from '../components/ChoiceSelect.tsx';
import { Notice } from '../components/Notice.tsx';
import { useExports } from '../stores/exports.ts';
import { CheckField, NumberField, TextField } from './FormFields.tsx';
import {
  type Draft,
  draftOf,
  type Fit,
  type FormatType,
  recipeOf,
  type SizeKind,
  type VideoBackground,
  type VideoChoice,
} from './recipe-draft.ts';
import { recipeIdFor } from './recipe-words.ts';

// One of the designer's own recipes, new or edited: format and quality, size, metadata, the file-name and
// folder templates, and the checks before a file is written. Core checks it with the recipe schema and says
// what is wrong in words, shown here as it is.

const DEFAULT_QUALITY: Record<FormatType, number> = { original: 90, jpeg: 90, png: 90, webp: 82, avif: 55 };

const FORMATS: ReadonlyArray<SelectOption<FormatType>> = [
  { value: 'original', text: 'Same as the result' },
  { value: 'jpeg', text: 'JPEG' },
  { value: 'png', text: 'PNG' },
  { value: 'webp', text: 'WebP' },
  { value: 'avif', text: 'AVIF' },
];

const SIZES: ReadonlyArray<SelectOption<SizeKind>> = [
  { value: 'original', text: 'Original size' },
  { value: 'long-edge', text: 'Long edge' },
  { value: 'exact', text: 'Exact width × height' },
];

const FITS: ReadonlyArray<SelectOption<Fit>> = [
  { value: 'pad', text: 'Whole image, padded' },
  { value: 'crop', text: 'Fill the frame, cropped' },
  { value: 'inside', text: 'Whole image, no padding' },
];

const VIDEOS: ReadonlyArray<SelectOption<VideoChoice>> = [
  { value: 'none', text: 'Not exported' },
  { value: 'copy', text: 'Copied as they are' },
  ...VIDEO_CHANNELS.map((channel) => ({ value: channel, text: `Made for ${VIDEO_CHANNEL_WORDS[channel]}` })),
];

const VIDEO_BACKGROUNDS: ReadonlyArray<SelectOption<VideoBackground>> = [
  { value: 'blur', text: 'A blurred copy of the video' },
  { value: 'pad', text: 'A plain colour' },
];

/** The bounds of a size in pixels, as the recipe schema has them (core/export/recipes.ts). */
const PIXELS = { min: 16, max: 20000 };

export const TOKENS =
  '{brand} {product} {sku} {handle} {style} {shot} {n} {n:03} {stars} {w} {h} {recipe} {date} {batch} {ext}';

export function RecipeEditor({
  recipe,
  onDone,
}: {
  /** The recipe edited; null for a new one. */
  recipe: Recipe | null;
  /** The recipe saved, or null when the editor was closed without saving. */
  onDone: (saved: Recipe | null) => void;
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
      <TextField
        label="Recipe name"
        value={draft.name}
        maxLength={80}
        onChange={(name) => change({ name })}
      />
      <div className="row">
        <ChoiceSelect
          label="Format"
          value={draft.format}
          options={FORMATS}
          onChange={(format) => change({ format, quality: DEFAULT_QUALITY[format] })}
        />
        {hasQuality && (
          <NumberField
            label="Quality"
            min={1}
            max={100}
            value={draft.quality}
            onChange={(text) => change({ quality: Number(text) })}
          />
        )}
      </div>
      <div className="row">
        <ChoiceSelect label="Size" value={draft.size} options={SIZES} onChange={(size) => change({ size })} />
        {draft.size === 'long-edge' && (
          <NumberField
            label="Long edge (px)"
            {...PIXELS}
            value={draft.longEdge}
            onChange={(text) => change({ longEdge: Number(text) })}
          />
        )}
        {draft.size === 'exact' && (
          <>
            <NumberField
              label="Width (px)"
              {...PIXELS}
              value={draft.width}
              onChange={(text) => change({ width: Number(text) })}
            />
            <NumberField
              label="Height (px)"
              {...PIXELS}
              value={draft.height}
              onChange={(text) => change({ height: Number(text) })}
            />
            <ChoiceSelect label="Fit" value={draft.fit} options={FITS} onChange={(fit) => change({ fit })} />
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
      {draft.size !== 'original' && (
        <CheckField checked={draft.allowUpscale} onChange={(allowUpscale) => change({ allowUpscale })}>
          Enlarge results smaller than this size (invents pixels)
        </CheckField>
      )}
      <div className="row">
        <ChoiceSelect
          label="Videos"
          value={draft.videos}
          options={VIDEOS}
          onChange={(videos) => change({ videos })}
        />
        {draft.videos !== 'none' && draft.videos !== 'copy' && (
          <>
            <ChoiceSelect
              label="Spare room in the frame"
              value={draft.videoBackground}
              options={VIDEO_BACKGROUNDS}
              onChange={(videoBackground) => change({ videoBackground })}
            />
            {draft.videoBackground === 'pad' && (
              <label>
                Video padding
                <input
                  type="color"
                  value={draft.videoPadColour}
                  onChange={(event) => change({ videoPadColour: event.target.value })}
                />
              </label>
            )}
          </>
        )}
      </div>
      <fieldset className="recipe-metadata">
        <legend>Metadata</legend>
        <CheckField
          checked={canKeepSource && draft.keepSource}
          disabled={!canKeepSource}
          onChange={(keepSource) => change({ keepSource })}
        >
          Keep the source file as it is, EXIF and GPS included (same format, original size only)
        </CheckField>
        <CheckField checked={draft.rating} onChange={(rating) => change({ rating })}>
          Stars as XMP rating
        </CheckField>
        <CheckField checked={draft.title} onChange={(title) => change({ title })}>
          Product as title
        </CheckField>
        <CheckField checked={draft.aiSource} onChange={(aiSource) => change({ aiSource })}>
          Mark AI-made results (IPTC digital source type)
        </CheckField>
      </fieldset>
      <div className="row">
        <TextField
          label="File name template"
          className="wide"
          value={draft.fileTemplate}
          describedBy="recipe-tokens"
          onChange={(fileTemplate) => change({ fileTemplate })}
        />
        <TextField
          label="Folder template"
          className="wide"
          value={draft.folderTemplate}
          describedBy="recipe-tokens"
          onChange={(folderTemplate) => change({ folderTemplate })}
        />
      </div>
      <p id="recipe-tokens" className="muted small">
        Tokens: {TOKENS}. A / in the folder makes a folder inside.
      </p>
      <div className="row">
        <NumberField
          label="Warn below (px of the result, long edge)"
          min={1}
          value={draft.recommendedLongEdge}
          onChange={(recommendedLongEdge) => change({ recommendedLongEdge })}
        />
        <NumberField
          label="Refuse files above (MB)"
          min={0}
          step="0.1"
          value={draft.maxMegabytes}
          onChange={(maxMegabytes) => change({ maxMegabytes })}
        />
      </div>
      {error && <Notice kind="error">{error}</Notice>}
      <div className="actions">
        {/* Not "Cancel": the dialog's own Cancel, just below, closes the whole export. */}
        <button type="button" onClick={() => onDone(null)}>
          Close without saving
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
