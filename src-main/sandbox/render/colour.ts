/** Colour helpers for building SVG palettes from one base colour (e.g. the client's background_color). */
export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const HEX_COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Parses '#rgb' or '#rrggbb'; anything else is a caller bug (the API layer validates the field). */
export function parseHexColour(hex: string): Rgb {
  const match = HEX_COLOUR.exec(hex);
  if (!match) throw new Error(`not a hex colour: ${hex}`);
  const digits = match[1]!;
  const full = digits.length === 3 ? [...digits].map((d) => d + d).join('') : digits;
  const value = Number.parseInt(full, 16);
  return { r: (value >> 16) & 255, g: (value >> 8) & 255, b: value & 255 };
}

export function toHex({ r, g, b }: Rgb): string {
  const channel = (v: number) =>
    Math.round(Math.min(255, Math.max(0, v)))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(r)}${channel(g)}${channel(b)}`;
}

/** Linear mix: t = 0 gives a, t = 1 gives b. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return { r: a.r + (b.r - a.r) * t, g: a.g + (b.g - a.g) * t, b: a.b + (b.b - a.b) * t };
}

const WHITE: Rgb = { r: 255, g: 255, b: 255 };
const BLACK: Rgb = { r: 0, g: 0, b: 0 };

export function lighten(colour: Rgb, amount: number): string {
  return toHex(mix(colour, WHITE, amount));
}

export function darken(colour: Rgb, amount: number): string {
  return toHex(mix(colour, BLACK, amount));
}
