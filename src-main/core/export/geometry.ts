import type { RecipeSize } from '../../shared/export-recipe.ts';

// The pixel size of an output, worked out before rendering so that `{w}` and `{h}` in a name are the
// size of the file, and render.ts resizes to exactly these (sharp's own rounding of a fitted size could
// differ from ours by a pixel). A source smaller than the recipe's size is never enlarged unless the recipe
// allows it (`allowUpscale`): an exact frame is then made smaller, in the same shape, so that no pixel is
// invented. `scale` says how much the source was enlarged, so that the size checks count the source's
// pixels, not enlarged ones (plan-checks.ts).

export interface Dimensions {
  width: number;
  height: number;
}

export interface Framing extends Dimensions {
  /** Output pixels per source pixel: above 1 when the source was enlarged. */
  scale: number;
}

function scaled(source: Dimensions, scale: number): Dimensions {
  return {
    width: Math.max(1, Math.round(source.width * scale)),
    height: Math.max(1, Math.round(source.height * scale)),
  };
}

/** The source's size fitted inside `box`, enlarged only when `enlarge`. */
export function fitInside(source: Dimensions, box: Dimensions, enlarge: boolean): Dimensions {
  const scale = Math.min(box.width / source.width, box.height / source.height);
  return scale > 1 && !enlarge ? { ...source } : scaled(source, scale);
}

function fitted(source: Dimensions, box: Dimensions, enlarge: boolean): Framing {
  const scale = Math.min(box.width / source.width, box.height / source.height);
  return { ...fitInside(source, box, enlarge), scale: scale > 1 && !enlarge ? 1 : scale };
}

/** An exact frame: the whole frame when the source fills it, else the frame's shape at the source's scale. */
function frame(box: Dimensions, scale: number, enlarge: boolean): Framing {
  if (scale <= 1 || enlarge) return { ...box, scale };
  return { ...scaled(box, 1 / scale), scale: 1 };
}

/** The size of the output for a source of this size, and how much the source is enlarged in it. */
export function outputFraming(size: RecipeSize, source: Dimensions, allowUpscale: boolean): Framing {
  switch (size.kind) {
    case 'original':
      return { ...source, scale: 1 };
    case 'long-edge':
      return fitted(source, { width: size.px, height: size.px }, allowUpscale);
    case 'exact': {
      const across = size.width / source.width;
      const down = size.height / source.height;
      if (size.fit === 'inside') return fitted(source, size, allowUpscale);
      // A pad fits the source inside the frame; a crop covers the frame with it.
      return frame(size, size.fit === 'pad' ? Math.min(across, down) : Math.max(across, down), allowUpscale);
    }
  }
}

/** The long side of the output counted in source pixels: what the size checks compare. */
export function sourceLongEdge(framing: Framing): number {
  return Math.round(Math.max(framing.width, framing.height) / Math.max(1, framing.scale));
}
