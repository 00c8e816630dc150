import type { OverlayOptions } from 'sharp';

/**
 * The "SANDBOX" mark on every sandbox output, so a rendered image can never pass for a real one.
 * Letters are stroked polylines on a 4 x 6 grid: text would need fonts that CI machines may lack.
 */
const GLYPHS: Record<string, string[]> = {
  S: ['4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5'],
  A: ['0,6 2,0 4,6', '0.7,4 3.3,4'],
  N: ['0,6 0,0 4,6 4,0'],
  D: ['0,0 2.5,0 4,1.5 4,4.5 2.5,6 0,6 0,0'],
  B: ['0,3 3,3 4,2 4,1 3,0 0,0 0,6 3,6 4,5 4,4 3,3'],
  O: ['1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0'],
  X: ['0,0 4,6', '0,6 4,0'],
};
const WORD = 'SANDBOX';
const GLYPH_WIDTH = 4;
const GLYPH_HEIGHT = 6;
const LETTER_GAP = 1.6;
/** Room around the strokes, in grid units, so the thick outline stroke is not clipped. */
const PAD = 1.2;
const MARK_WIDTH = WORD.length * GLYPH_WIDTH + (WORD.length - 1) * LETTER_GAP + 2 * PAD;
const MARK_HEIGHT = GLYPH_HEIGHT + 2 * PAD;

export interface MarkBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The mark as an SVG of exactly width x height (it keeps its proportions, centred). */
export function watermarkSvg(width: number, height: number): string {
  const lines = [...WORD].flatMap((letter, i) =>
    GLYPHS[letter]!.map(
      (points) => `<polyline points="${points}" transform="translate(${i * (GLYPH_WIDTH + LETTER_GAP)} 0)"/>`,
    ),
  );
  const strokes = lines.join('');
  // A dark outline under a light stroke keeps the mark readable on white and on black backdrops.
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="${-PAD} ${-PAD} ${MARK_WIDTH} ${MARK_HEIGHT}">` +
    `<g fill="none" stroke-linecap="round" stroke-linejoin="round">` +
    `<g stroke="#000" stroke-opacity="0.4" stroke-width="1.5">${strokes}</g>` +
    `<g stroke="#fff" stroke-opacity="0.8" stroke-width="0.75">${strokes}</g>` +
    `</g></svg>`
  );
}

/** Bottom-right corner, about 4.5% of the short side tall, never below a legible 14 px. */
export function watermarkBox(imageWidth: number, imageHeight: number): MarkBox {
  const short = Math.min(imageWidth, imageHeight);
  const height = Math.max(14, Math.round(short * 0.045));
  const width = Math.round((height * MARK_WIDTH) / MARK_HEIGHT);
  const margin = Math.round(short * 0.025);
  return { left: imageWidth - width - margin, top: imageHeight - height - margin, width, height };
}

export function watermarkOverlay(imageWidth: number, imageHeight: number): OverlayOptions {
  const box = watermarkBox(imageWidth, imageHeight);
  return { input: Buffer.from(watermarkSvg(box.width, box.height)), left: box.left, top: box.top };
}
