// Styles that stage the product in a place: element (under water), influencer and lifestyle.
import {
  centreOf,
  contactShadow,
  hex,
  placeWith,
  type Stage,
  type StyleRecipe,
  short,
  vignette,
} from './backdrop-kit.ts';
import { darken, lighten } from './colour.ts';
import type { Box } from './geometry.ts';
import type { Random } from './random.ts';
import { circle, Defs, ellipse, num, polygon, rect, svgDocument } from './svg.ts';

/** Surface, middle and depth colours of the water: teal, ocean blue, green lagoon. */
const WATERS: readonly (readonly [string, string, string])[] = [
  ['#a6e6df', '#2a9d9f', '#0b4f5c'],
  ['#b7eef0', '#3aa6b9', '#0d3f57'],
  ['#b8e8cf', '#2f9b86', '#0e4a45'],
];

export const element: StyleRecipe = {
  place: placeWith({ size: 0.52, centreX: 0.5, bottom: 0.8, maxTilt: 3 }),
  draw(stage) {
    const { width, height, product, rng } = stage;
    const defs = new Defs();
    const s = short(stage);
    const [surface, mid, deep] = WATERS[stage.variant]!;
    const water = defs.linear([
      { offset: 0, colour: surface },
      { offset: 0.45, colour: mid },
      { offset: 1, colour: deep },
    ]);
    const rays = [0.15, 0.4, 0.7].map((at) => {
      const x = width * (at + rng.range(-0.05, 0.05));
      const spread = width * rng.range(0.06, 0.12);
      return polygon(
        [
          [x, 0],
          [x + spread * 0.4, 0],
          [x + spread * 2.2, height],
          [x + spread * 0.8, height],
        ],
        '#fff',
        ' fill-opacity="0.08"',
      );
    });
    const bubbles = Array.from({ length: 30 }, () => {
      const r = s * rng.range(0.004, 0.028);
      const x = rng.range(0, width);
      const y = height * rng.next() ** 1.5 * 0.85;
      return (
        circle(
          x,
          y,
          r,
          '#fff',
          ` fill-opacity="0.12" stroke="#fff" stroke-opacity="0.65" stroke-width="${num(r * 0.12)}"`,
        ) + circle(x - r * 0.35, y - r * 0.35, r * 0.22, '#fff', ' fill-opacity="0.75"')
      );
    });
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, water) + rays.join('') + bubbles.join('') + stones(defs, stage, product),
    );
  },
};

/** Pebbles along the bottom, and one flat stone the product stands on. */
function stones(defs: Defs, stage: Stage, product: Box): string {
  const { width, height, rng } = stage;
  const s = short(stage);
  const greys = ['#6f7b7a', '#4f5a5c', '#8c9590', '#5d6663'];
  const floorY = product.top + product.height;
  let markup = '';
  for (let x = -s * 0.05; x < width + s * 0.1; x += s * rng.range(0.1, 0.18)) {
    const rx = s * rng.range(0.07, 0.12);
    const fill = defs.radial(
      [
        { offset: 0, colour: lighten(hex(rng.pick(greys)), 0.3) },
        { offset: 1, colour: rng.pick(greys) },
      ],
      0.4,
      0.3,
      0.7,
    );
    markup += ellipse(x, height - s * rng.range(0, 0.04), rx, rx * rng.range(0.45, 0.7), fill);
  }
  const slab = defs.radial(
    [
      { offset: 0, colour: '#a9b1ad' },
      { offset: 1, colour: '#59625f' },
    ],
    0.45,
    0.3,
    0.7,
  );
  const x = centreOf(product).x;
  const rx = product.width * 0.75;
  return markup + ellipse(x, floorY + rx * 0.1, rx, rx * 0.22, slab) + contactShadow(defs, stage, 0.4);
}

export const influencer: StyleRecipe = {
  place: placeWith({ size: 0.54, centreX: 0.5, bottom: 0.78, maxTilt: 6 }),
  draw(stage) {
    const { width, height, product, rng } = stage;
    const defs = new Defs();
    const s = short(stage);
    const palette = [
      ['#ffd1dc', '#e5d4ff', '#c9ecff'],
      ['#ffe5c4', '#ffc8dd', '#d8c3ff'],
      ['#c9f2e7', '#fce1ef', '#fff2c2'],
    ][stage.variant]!;
    const background = defs.linear(
      palette.map((colour, i) => ({ offset: i / 2, colour })),
      0,
      0,
      1,
      1,
    );
    const bokeh = Array.from({ length: 22 }, () => {
      const colour = rng.next() < 0.6 ? '#ffffff' : rng.pick(palette);
      return circle(
        rng.range(0, width),
        rng.range(0, height),
        s * rng.range(0.03, 0.13),
        defs.glow(colour, rng.range(0.4, 0.8)),
      );
    });
    const centre = centreOf(product);
    const floorY = product.top + product.height;
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, background) +
        bokeh.join('') +
        ellipse(centre.x, floorY, product.width * 0.8, product.width * 0.16, '#fff', ' fill-opacity="0.55"') +
        contactShadow(defs, stage, 0.3),
    );
  },
};

/** Wood grain: long, gently waving darker strokes across the table top. */
function woodGrain(rng: Random, width: number, top: number, height: number, colour: string): string {
  let markup = '';
  for (let y = top + height * 0.04; y < top + height; y += height * rng.range(0.05, 0.1)) {
    const wave = height * rng.range(-0.03, 0.03);
    const stroke = Math.max(1, height * rng.range(0.004, 0.012));
    markup += `<path d="M0 ${num(y)} Q${num(width * rng.range(0.3, 0.7))} ${num(y + wave)} ${width} ${num(y + wave * 0.3)}" fill="none" stroke="${colour}" stroke-width="${num(stroke)}" stroke-opacity="${num(rng.range(0.2, 0.45))}"/>`;
  }
  return markup;
}

/** Wall, light wood and dark wood: cream and oak, sage and birch, blush and walnut. */
const ROOMS: readonly (readonly [string, string, string])[] = [
  ['#efe3cf', '#b27d4b', '#82542f'],
  ['#dfe5d6', '#d2b48c', '#a9865c'],
  ['#eedfd7', '#7a4d2c', '#4a2d1a'],
];

export const lifestyle: StyleRecipe = {
  place: placeWith({ size: 0.5, centreX: 0.55, bottom: 0.84, maxTilt: 2 }),
  draw(stage) {
    const { width, height, light, rng } = stage;
    const defs = new Defs();
    const [wallColour, woodLight, woodDark] = ROOMS[stage.variant]!;
    const wall = hex(wallColour);
    const tableTop = height * 0.6;
    const wallFill = defs.linear([
      { offset: 0, colour: darken(wall, 0.06) },
      { offset: 1, colour: lighten(wall, 0.1) },
    ]);
    const wood = defs.linear([
      { offset: 0, colour: woodLight },
      { offset: 1, colour: woodDark },
    ]);
    // A slanted patch of window light on the wall, from the key-light side.
    const windowX = width * (light === -1 ? 0.05 : 0.55);
    const lean = width * 0.18 * -light;
    const windowLight = polygon(
      [
        [windowX, height * 0.05],
        [windowX + width * 0.3, height * 0.05],
        [windowX + width * 0.3 + lean, tableTop],
        [windowX + lean, tableTop],
      ],
      '#fff8ea',
      ' fill-opacity="0.35"',
    );
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, tableTop, wallFill) +
        windowLight +
        plant(stage, tableTop) +
        rect(0, tableTop, width, height - tableTop, wood) +
        woodGrain(rng, width, tableTop, height - tableTop, woodDark) +
        rect(0, tableTop, width, Math.max(2, height * 0.006), lighten(hex(woodLight), 0.25)) +
        vignette(defs, stage, 0.2) +
        contactShadow(defs, stage, 0.5),
    );
  },
};

/** A small vase of leaves at the back of the table, on the side away from the product. */
function plant(stage: Stage, tableTop: number): string {
  const { width, product, rng } = stage;
  const s = short(stage);
  const productX = centreOf(product).x;
  const x = productX > width / 2 ? width * 0.16 : width * 0.84;
  const vase = rect(
    x - s * 0.04,
    tableTop - s * 0.12,
    s * 0.08,
    s * 0.12,
    '#e9e4dc',
    ` rx="${num(s * 0.02)}"`,
  );
  const leaves = Array.from({ length: 7 }, (_, i) => {
    const angle = -60 + i * 20 + rng.range(-6, 6);
    const length = s * rng.range(0.12, 0.2);
    return `<ellipse cx="${num(x)}" cy="${num(tableTop - s * 0.12 - length / 2)}" rx="${num(s * 0.022)}" ry="${num(length / 2)}" fill="${i % 2 ? '#6f8f5e' : '#5a7a4c'}" transform="rotate(${num(angle)} ${num(x)} ${num(tableTop - s * 0.12)})"/>`;
  });
  return leaves.join('') + vase;
}
