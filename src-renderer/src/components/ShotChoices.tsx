import type { CatalogView, ShootSettingsView } from '../../../src-main/shared/models.ts';
import { credits, listed } from '../format.ts';
import { ChoiceSelect } from './ChoiceSelect.tsx';

// A shoot's shots, aspect ratio and quality, and its background colour, from the catalog: the same choices
// in New batch and in Review's Reshoot dialog.

/** The background a shoot starts from when the designer asks for one: a warm off-white. */
const DEFAULT_BACKGROUND = '#f4efe6';

type ShootChange = Partial<ShootSettingsView>;

export function ShotChoices({
  catalog,
  shoot,
  onChange,
}: {
  catalog: CatalogView;
  shoot: ShootSettingsView;
  onChange: (change: ShootChange) => void;
}) {
  const sixShotStyle = catalog.styles.find((style) => style.id === shoot.style)?.sixShots ?? true;
  const sixShotStyles = listed(catalog.styles.filter((style) => style.sixShots).map((style) => style.label));
  return (
    <>
      <ChoiceSelect
        label="Shots"
        value={shoot.shots}
        options={catalog.shotCounts.map((count) => {
          const unavailable = count > catalog.clampedShots && !sixShotStyle;
          return {
            value: count,
            text: unavailable ? `${count} (${sixShotStyles} only)` : String(count),
            disabled: unavailable,
          };
        })}
        onChange={(shots) => onChange({ shots })}
      />
      <ChoiceSelect
        label="Aspect ratio"
        value={shoot.aspectRatio}
        options={catalog.shootAspectRatios.map((ratio) => ({ value: ratio, text: ratio }))}
        onChange={(aspectRatio) => onChange({ aspectRatio })}
      />
      <ChoiceSelect
        label="Quality"
        value={shoot.quality}
        options={catalog.qualities.map((quality) => ({
          value: quality.id,
          text: `${quality.label} (${credits(quality.creditsPerImage)} a shot)`,
        }))}
        onChange={(quality) => onChange({ quality })}
      />
    </>
  );
}

/** Whether the shoot has a background colour, and which. */
export function BackgroundChoice({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (change: ShootChange) => void;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={value !== null}
        onChange={(event) => onChange({ backgroundColor: event.target.checked ? DEFAULT_BACKGROUND : null })}
      />
      Background colour
      {value !== null && (
        <input
          type="color"
          aria-label="Background colour"
          value={value}
          onChange={(event) => onChange({ backgroundColor: event.target.value })}
        />
      )}
    </label>
  );
}
