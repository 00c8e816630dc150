import type { CatalogView, ShootStyle } from '../../../src-main/shared/models.ts';
import { PictureChoices } from './PictureChoices.tsx';

// The styles, their labels and their swatches (each backdrop's colours) come from core's catalog. React sets
// a swatch through the element's style property (CSSOM), which no style-src CSP restricts.

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
