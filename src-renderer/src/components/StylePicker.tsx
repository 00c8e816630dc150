import type { CatalogView, ShootStyle } from '../../../src-main/shared/models.ts';
import { PictureChoices } from './PictureChoices.tsx';

// The styles come from core's catalog; each one's swatch (its backdrop's colours, as the sandbox paints them)
// is presentation, so it lives in styles.css under `.swatch[data-style=…]`, with a plain swatch for a style
// the stylesheet does not know yet.

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
        picture: <span className="swatch" data-style={style.id} aria-hidden="true" />,
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
