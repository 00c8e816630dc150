import { z } from 'zod';

// Recipes stored before `allowUpscale` (issue 29) said they may enlarge with `size.enlarge: true`, which the
// recipe schema no longer knows and would drop without a word: such a recipe would quietly stop enlarging.
// A stored recipe (the designer's saved ones, an export's snapshot) is read through this first, so that
// `size.enlarge: true` becomes `allowUpscale: true`; the next save writes it the new way. `enlarge: false`
// (or none) is what recipes do now, so it needs nothing.

const legacyEnlarging = z.looseObject({
  size: z.looseObject({ enlarge: z.literal(true) }),
  allowUpscale: z.undefined().optional(),
});

/** `entry` with `size.enlarge: true` turned into `allowUpscale: true`; anything else as it is. */
export function withLegacyUpscale(entry: unknown): unknown {
  const legacy = legacyEnlarging.safeParse(entry);
  return legacy.success ? { ...legacy.data, allowUpscale: true } : entry;
}
