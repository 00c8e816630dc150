import type { CatalogView } from '../../../src-main/shared/models.ts';
import type { ShootStyle } from '../../../src-main/shared/vocabulary.ts';
import { PictureChoices } from './PictureChoices.tsx';
import { STYLE_SAMPLES } from './style-samples.ts';

// The styles and their labels come from core's catalog; each shows a sample shot of the style (style-samples.ts),
// or else its swatch of the backdrop's colours, which React sets through the element's style property (CSSOM),
// which no style-src CSP restricts.

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
        picture: STYLE_SAMPLES[style.id] ? (
          <img className="swatch style-sample" src={STYLE_SAMPLES[style.id]} alt="" width={80} height={48} />
        ) : (
          <span className="swatch" style={{ background: style.swatch }} aria-hidden="true" />
        ),
      }))}
      value={value}
      onChange={onChange}
    />
  );
}
