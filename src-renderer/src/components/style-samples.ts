import type { ShootStyle } from '../../../src-main/shared/vocabulary.ts';
import avantGarde from '../assets/styles/avant_garde.webp';
import classic from '../assets/styles/classic.webp';
import editorial from '../assets/styles/editorial.webp';
import element from '../assets/styles/element.webp';
import influencer from '../assets/styles/influencer.webp';
import lifestyle from '../assets/styles/lifestyle.webp';
import loudLuxury from '../assets/styles/loud_luxury.webp';
import luxury from '../assets/styles/luxury.webp';
import magazine from '../assets/styles/magazine.webp';
import minimal from '../assets/styles/minimal.webp';

// What each style looks like: one shot of a bundled example rendered by the sandbox's own renderer
// (scripts/style-samples.ts, `npm run style-samples`). A style added to the catalog without a sample keeps
// its colour swatch.

export const STYLE_SAMPLES: Partial<Record<ShootStyle, string>> = {
  classic,
  minimal,
  luxury,
  loud_luxury: loudLuxury,
  magazine,
  editorial,
  avant_garde: avantGarde,
  element,
  influencer,
  lifestyle,
};
