import type { RecipeSize } from '../../shared/export-recipe.ts';

// The pixel size of an output, worked out before rendering so that `{w}` and `{h}` in a name are the
// size of the file, and render.ts resizes to exactly these (sharp's own rounding of a fitted size could
// differ from ours by a pixel).

export interface Dimensions {
  width: number;
  height: number;
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

/** The size of the output for a source of this size. */
export function outputDimensions(size: RecipeSize, source: Dimensions): Dimensions {
  switch (size.kind) {
    case 'original':
      return { ...source };
    case 'long-edge':
      return fitInside(source, { width: size.px, height: size.px }, size.enlarge);
    case 'exact':
      return size.fit === 'inside'
        ? fitInside(source, size, size.enlarge)
        : { width: size.width, height: size.height };
  }
}
