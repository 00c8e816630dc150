import type { ShootStyle } from '../rules.ts';
import type { StyleRecipe } from './backdrop-kit.ts';
import { avantGarde, editorial, magazine } from './print-backdrops.ts';
import { element, influencer, lifestyle } from './scene-backdrops.ts';
import { classic, loudLuxury, luxury, minimal } from './studio-backdrops.ts';

/** How each shoot style places the product and draws the set around it. */
export const STYLE_RECIPES: Record<ShootStyle, StyleRecipe> = {
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
