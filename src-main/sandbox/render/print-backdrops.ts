// Graphic styles drawn like printed layouts: magazine, editorial and avant_garde.
import { centreOf, contactShadow, placeWith, type StyleRecipe, short, vignette } from './backdrop-kit.ts';
import type { Frame } from './geometry.ts';
import type { Random } from './random.ts';
import { circle, Defs, num, polygon, rect, svgDocument } from './svg.ts';

const MAGAZINE_BLOCKS = ['#e9b44c', '#5b8fb9', '#e07a5f'];
const INK = '#1b1b1d';

/** Thin grey bars standing in for body copy; widths vary so they read as ragged text. */
function textLines(
  rng: Random,
  x: number,
  y: number,
  width: number,
  bottom: number,
  lineHeight: number,
): string {
  let markup = '';
  for (let top = y; top + lineHeight <= bottom; top += lineHeight * 2.3) {
    const paragraphEnd = rng.next() < 0.15;
    markup += rect(
      x,
      top,
      width * (paragraphEnd ? rng.range(0.35, 0.7) : rng.range(0.88, 1)),
      lineHeight,
      '#9a968f',
    );
  }
  return markup;
}

/** Magazine pages are laid out side by side on wide frames, stacked on tall ones. */
function magazineIsStacked(frame: Frame): boolean {
  return frame.width < frame.height * 0.9;
}

export const magazine: StyleRecipe = {
  // The product floats in the middle of the colour block, like a cut-out on a printed page.
  place(frame, rng, light, aspect) {
    const { width, height } = frame;
    const stacked = magazineIsStacked(frame);
    const scale = rng.range(0.9, 1.05);
    const boxWidth = (stacked ? width * 0.7 : width * 0.44) * scale;
    const boxHeight = (stacked ? height * 0.44 : height * 0.64) * scale;
    const fittedHeight = Math.min(boxHeight, boxWidth / aspect);
    return {
      centreX: stacked ? width / 2 : width * (light === -1 ? 0.31 : 0.7),
      bottom: height * (stacked ? 0.395 : 0.545) + fittedHeight / 2,
      boxWidth,
      boxHeight,
      tilt: rng.range(-3, 3),
    };
  },
  draw(stage) {
    const { width, height, light, rng } = stage;
    const defs = new Defs();
    const block = MAGAZINE_BLOCKS[stage.variant]!;
    const header = height * 0.09;
    const line = Math.max(3, height * 0.011);
    const pad = width * 0.05;
    let page: string;
    if (magazineIsStacked(stage)) {
      page =
        rect(pad, header + height * 0.03, width - 2 * pad, height * 0.55, block) +
        rect(pad, height * 0.7, width * 0.7, line * 3.2, INK) +
        rect(pad, height * 0.7 + line * 4.4, width * 0.5, line * 3.2, INK) +
        textLines(rng, pad, height * 0.8, width - 2 * pad, height * 0.95, line);
    } else {
      const blockX = light === -1 ? pad : width * 0.44;
      const textX = light === -1 ? width * 0.6 : pad;
      const textWidth = width * 0.35;
      page =
        rect(blockX, header + height * 0.04, width * 0.52, height * 0.83, block) +
        rect(textX, header + height * 0.06, textWidth, line * 3.4, INK) +
        rect(textX, header + height * 0.06 + line * 4.6, textWidth * 0.7, line * 3.4, INK) +
        rect(textX, header + height * 0.2, textWidth * 0.25, line * 0.8, block) +
        textLines(rng, textX, header + height * 0.25, textWidth, height * 0.94, line);
    }
    // Header bar with a chunky masthead block and small issue-line blocks.
    const masthead =
      rect(0, 0, width, header, INK) +
      rect(pad, header * 0.25, width * 0.34, header * 0.5, '#f4efe6') +
      [0, 1, 2]
        .map((i) =>
          rect(width - pad - (i + 1) * width * 0.07, header * 0.42, width * 0.05, header * 0.16, '#8d8a84'),
        )
        .join('');
    return svgDocument(width, height, defs, rect(0, 0, width, height, '#f4efe6') + page + masthead);
  },
};

export const editorial: StyleRecipe = {
  place: placeWith({ size: 0.52, centreX: 0.34, bottom: 0.8, maxTilt: 3 }),
  draw(stage) {
    const { width, height, light } = stage;
    const defs = new Defs();
    const accent = ['#b49c84', '#b9785c', '#9aa58c'][stage.variant]!;
    const mirror = (x: number, w: number) => (light === -1 ? x : width - x - w);
    const ledge = height * 0.78;
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, '#d9ccb9') +
        rect(mirror(width * 0.56, width * 0.44), 0, width * 0.44, height, accent) +
        rect(mirror(width * 0.44, width * 0.3), height * 0.1, width * 0.3, height * 0.42, '#efe7db') +
        rect(
          mirror(width * 0.08, width * 0.004),
          height * 0.06,
          Math.max(2, width * 0.004),
          height * 0.6,
          '#3a3430',
        ) +
        rect(0, ledge, width, height - ledge, '#000', ' fill-opacity="0.07"') +
        vignette(defs, stage, 0.12) +
        contactShadow(defs, stage, 0.35),
    );
  },
};

/** Paper, circle, triangle and bar colours: primary-colour constructivism on light, black or blue. */
const AVANT_GARDE_PALETTES: readonly (readonly [string, string, string, string])[] = [
  ['#efeae0', '#e63b2e', '#1d3fcf', '#f7c531'],
  ['#141414', '#f7c531', '#e63b2e', '#f4f1ea'],
  ['#1d3fcf', '#f7c531', '#f4f1ea', '#e63b2e'],
];

export const avantGarde: StyleRecipe = {
  place: placeWith({ size: 0.54, centreX: 0.5, bottom: 0.8, maxTilt: 8 }),
  draw(stage) {
    const { width, height, product, rng } = stage;
    const defs = new Defs();
    const s = short(stage);
    const [paper, circleFill, triangleFill, barFill] = AVANT_GARDE_PALETTES[stage.variant]!;
    const centre = centreOf(product);
    const corner = rng.next() < 0.5 ? 0 : width;
    const dots = Array.from({ length: 25 }, (_, i) =>
      circle(
        width * 0.08 + (i % 5) * s * 0.045,
        height * 0.08 + Math.floor(i / 5) * s * 0.045,
        s * 0.009,
        barFill,
      ),
    ).join('');
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, paper) +
        circle(centre.x + s * rng.range(-0.12, 0.12), centre.y - s * 0.05, s * 0.34, circleFill) +
        polygon(
          [
            [corner, height],
            [corner, height * 0.35],
            [Math.abs(corner - width * 0.55), height],
          ],
          triangleFill,
        ) +
        `<g transform="rotate(${num(rng.range(-30, 30))} ${num(width * 0.7)} ${num(height * 0.2)})">${rect(width * 0.45, height * 0.16, width * 0.6, s * 0.07, barFill)}</g>` +
        `<line x1="0" y1="${num(height * 0.9)}" x2="${width}" y2="${num(height * 0.55)}" stroke="${INK}" stroke-width="${num(s * 0.012)}"/>` +
        dots +
        contactShadow(defs, stage, 0.4),
    );
  },
};
