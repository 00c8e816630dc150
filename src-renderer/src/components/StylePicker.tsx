import type { CatalogView, ShootStyle } from '../../../src-main/shared/models.ts';
import { PictureChoices } from './PictureChoices.tsx';

// The styles, their labels and their swatches (each backdrop's colours) come from core's catalog. The
// swatch is set through the style property (CSSOM), which the CSP allows, not as an inline attribute.

export function StylePicker({
  styles,
  value,
  onChange,
}: {
  styles: CatalogView['styles'];
  value: ShootStyle;
  onChange: (style: ShootStyle) => void;
}) {
  return (
    <PictureChoices
      legend="Style"
      name="style"
      columns={5}
      choices={styles.map((style) => ({
        value: style.id,
        label: style.label,
        picture: <span className="swatch" style={{ background: style.swatch }} aria-hidden="true" />,
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
