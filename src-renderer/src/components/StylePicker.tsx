import type { ShootStyle } from '../../../src-main/shared/models.ts';
import { PictureChoices } from './PictureChoices.tsx';

// A visual example of each style: its backdrop's colours, as the sandbox paints them.
const STYLES: Array<{ id: ShootStyle; label: string; swatch: string }> = [
  { id: 'classic', label: 'Classic', swatch: 'linear-gradient(#f5f5f3, #dcdcd8)' },
  { id: 'minimal', label: 'Minimal', swatch: 'linear-gradient(#ffffff, #eeeeee)' },
  { id: 'luxury', label: 'Luxury', swatch: 'linear-gradient(135deg, #1d1a16, #6b5430)' },
  { id: 'loud_luxury', label: 'Loud luxury', swatch: 'linear-gradient(135deg, #5b0f2e, #d4a017)' },
  { id: 'magazine', label: 'Magazine', swatch: 'linear-gradient(90deg, #e84a3c 50%, #f4e9dc 50%)' },
  { id: 'editorial', label: 'Editorial', swatch: 'linear-gradient(#c9c2b8, #8d857a)' },
  { id: 'avant_garde', label: 'Avant-garde', swatch: 'conic-gradient(#3a0ca3, #f72585, #4cc9f0, #3a0ca3)' },
  { id: 'element', label: 'Element', swatch: 'radial-gradient(circle at 30% 30%, #9ad1d4, #1b4965)' },
  { id: 'influencer', label: 'Influencer', swatch: 'linear-gradient(135deg, #ffd6e0, #c1e7ff)' },
  { id: 'lifestyle', label: 'Lifestyle', swatch: 'linear-gradient(#f3e3c7, #a47551)' },
];

const CHOICES = STYLES.map((style) => ({
  value: style.id,
  label: style.label,
  picture: <span className="swatch" style={{ background: style.swatch }} aria-hidden="true" />,
}));

export function StylePicker({
  value,
  onChange,
}: {
  value: ShootStyle;
  onChange: (style: ShootStyle) => void;
}) {
  return (
    <PictureChoices
      legend="Style"
      name="style"
      columns={5}
      choices={CHOICES}
      value={value}
      onChange={onChange}
    />
  );
}
