// Types and shared pieces of the style backdrops: placement, floor shadows, vignettes.
import { parseHexColour, type Rgb } from './colour.ts';
import type { Box, Frame } from './geometry.ts';
import type { Random } from './random.ts';
import { type Defs, ellipse, rect } from './svg.ts';

/** Which side the key light comes from: -1 left, 1 right. Shadows fall the other way. */
export type Light = -1 | 1;

/** Where a style wants the product: a box it is fitted into, resting on `bottom`. */
export interface Placement {
  centreX: number;
  bottom: number;
  boxWidth: number;
  boxHeight: number;
  /** Degrees, clockwise. */
  tilt: number;
}

/** Everything a backdrop needs to dress the set around the product already placed. */
export interface Stage extends Frame {
  rng: Random;
  light: Light;
  /** 0, 1 or 2: a palette or arrangement alternative, so the shots of one shoot differ. */
  variant: number;
  /** The client's background_color, already limited to studio styles. */
  base?: Rgb;
  product: Box;
}

export interface StyleRecipe {
  /** `aspect` is the product's width / height, for styles that centre it rather than stand it on a floor. */
  place(frame: Frame, rng: Random, light: Light, aspect: number): Placement;
  draw(stage: Stage): string;
}

export interface PlaceOptions {
  /** Product box side as a fraction of the geometric mean of the frame's sides. */
  size: number;
  /** Product centre as a fraction of the width, for light from the left (mirrored otherwise). */
  centreX: number;
  bottom: number;
  maxTilt: number;
}

/** Shared placement with seeded jitter: about +-10% size, a little drift, a slight tilt. */
export function placeWith(options: PlaceOptions) {
  return (frame: Frame, rng: Random, light: Light): Placement => {
    // Sized on the geometric mean of the sides, so a 9:16 or 16:9 product is not dwarfed by the
    // empty long side; the caps below keep it inside the short one.
    const side = Math.sqrt(frame.width * frame.height) * options.size * rng.range(0.9, 1.1);
    const centre = light === -1 ? options.centreX : 1 - options.centreX;
    return {
      centreX: frame.width * (centre + rng.range(-0.03, 0.03)),
      bottom: frame.height * (options.bottom + rng.range(-0.02, 0.02)),
      boxWidth: Math.min(side, frame.width * 0.86),
      boxHeight: Math.min(side, frame.height * 0.8),
      tilt: rng.range(-options.maxTilt, options.maxTilt),
    };
  };
}

export function short(frame: Frame): number {
  return Math.min(frame.width, frame.height);
}

export function centreOf(box: Box): { x: number; y: number } {
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** The soft dark pool right under the product that makes it sit on the floor rather than float. */
export function contactShadow(defs: Defs, stage: Stage, strength: number): string {
  const { product } = stage;
  const x = centreOf(product).x;
  const floor = product.top + product.height;
  return ellipse(
    x,
    floor,
    product.width * 0.58,
    Math.max(short(stage) * 0.02, product.width * 0.07),
    defs.glow('#000', strength),
  );
}

/**
 * Darkened edges, as four strips fading inwards (the corners, where two meet, get the most).
 * Linear gradients rather than one radial: cairo's radial fill costs about 0.2 s per 4K canvas.
 */
export function vignette(defs: Defs, stage: Stage, strength: number): string {
  const { width, height } = stage;
  const depth = 0.22;
  const fade = (x1: number, y1: number, x2: number, y2: number) =>
    defs.linear(
      [
        { offset: 0, colour: '#000', opacity: strength },
        { offset: 1, colour: '#000', opacity: 0 },
      ],
      x1,
      y1,
      x2,
      y2,
    );
  return (
    rect(0, 0, width, height * depth, fade(0, 0, 0, 1)) +
    rect(0, height * (1 - depth), width, height * depth, fade(0, 1, 0, 0)) +
    rect(0, 0, width * depth, height, fade(0, 0, 1, 0)) +
    rect(width * (1 - depth), 0, width * depth, height, fade(1, 0, 0, 0))
  );
}

export function hex(colour: string): Rgb {
  return parseHexColour(colour);
}
