// Studio styles: classic, minimal, luxury and loud_luxury, the ones that honour background_color.
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
import { darken, lighten, mix, toHex } from './colour.ts';
import { circle, Defs, ellipse, num, polygon, rect, svgDocument } from './svg.ts';

export const classic: StyleRecipe = {
  place: placeWith({ size: 0.62, centreX: 0.5, bottom: 0.8, maxTilt: 2 }),
  draw(stage) {
    const { width, height, light } = stage;
    const base = stage.base ?? hex(['#e4e4e6', '#e8e3dc', '#dfe4ea'][stage.variant]!);
    const defs = new Defs();
    // The sweep: a bright wall that darkens where it curves into the floor, then brightens towards the lens.
    const curve = Math.min(0.9, (stage.product.top + stage.product.height) / height - 0.08);
    const sweep = defs.linear([
      { offset: 0, colour: lighten(base, 0.45) },
      { offset: curve, colour: darken(base, 0.06) },
      { offset: 1, colour: lighten(base, 0.3) },
    ]);
    const spot = Math.max(width, height) * 0.7;
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, sweep) +
        circle(width * (0.5 + light * 0.25), height * 0.3, spot, defs.glow('#fff', 0.6)) +
        vignette(defs, stage, 0.18) +
        contactShadow(defs, stage, 0.45),
    );
  },
};

export const minimal: StyleRecipe = {
  place: placeWith({ size: 0.34, centreX: 0.42, bottom: 0.7, maxTilt: 0 }),
  draw(stage) {
    const { width, height, product } = stage;
    const base = stage.base ?? hex(['#f6f4f0', '#f4f4f2', '#f7f3ee'][stage.variant]!);
    const defs = new Defs();
    const floorY = product.top + product.height;
    const centre = centreOf(product);
    // One quiet shape behind the product, in a tint barely off the base: negative space is the point.
    const shapes = [
      `<path d="M${num(centre.x - product.width * 0.75)} ${num(floorY)} V${num(centre.y - product.height * 0.2)} a${num(product.width * 0.75)} ${num(product.width * 0.75)} 0 0 1 ${num(product.width * 1.5)} 0 V${num(floorY)} Z" fill="${darken(base, 0.035)}"/>`,
      circle(centre.x, centre.y - product.height * 0.1, product.width * 0.85, darken(base, 0.03)),
      '',
    ];
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, toHex(base)) +
        rect(0, floorY, width, height - floorY, darken(base, 0.025)) +
        shapes[stage.variant]! +
        contactShadow(defs, stage, 0.25),
    );
  },
};

const GOLD_STOPS = [
  { offset: 0, colour: '#7a5c22' },
  { offset: 0.45, colour: '#f3d98b' },
  { offset: 0.7, colour: '#b08a3c' },
  { offset: 1, colour: '#6e521d' },
];

/** A cylinder the product stands on; the top ellipse sits at the product's floor line. */
function plinth(defs: Defs, stage: Stage, body: string, top: string, rim: string): string {
  const { product, height } = stage;
  const x = centreOf(product).x;
  const floorY = product.top + product.height;
  const rx = product.width * 0.72;
  const ry = Math.max(short(stage) * 0.025, rx * 0.14);
  const bottom = Math.min(height + ry, floorY + short(stage) * 0.2);
  const side = defs.linear(
    [
      { offset: 0, colour: darken(hex(body), 0.3) },
      { offset: 0.35, colour: body },
      { offset: 1, colour: darken(hex(body), 0.55) },
    ],
    0,
    0,
    1,
    0,
  );
  return (
    rect(x - rx, floorY, rx * 2, bottom - floorY, side) +
    ellipse(x, bottom, rx, ry, side) +
    ellipse(x, floorY, rx, ry, top, ` stroke="${rim}" stroke-width="${num(short(stage) * 0.004)}"`)
  );
}

export const luxury: StyleRecipe = {
  place: placeWith({ size: 0.5, centreX: 0.5, bottom: 0.74, maxTilt: 2 }),
  draw(stage) {
    const { width, height, product, rng } = stage;
    const base = stage.base ?? hex(['#121113', '#14110f', '#0f1114'][stage.variant]!);
    const defs = new Defs();
    const centre = centreOf(product);
    const glow = defs.radial(
      [
        { offset: 0, colour: toHex(mix(base, hex('#7a6038'), 0.5)) },
        { offset: 0.5, colour: toHex(base) },
        { offset: 1, colour: darken(base, 0.6) },
      ],
      centre.x / width,
      centre.y / height,
      0.75,
    );
    const gold = defs.linear(GOLD_STOPS, 0, 0, 1, 1);
    const ring = Math.max(product.width, product.height) * 0.68;
    const stroke = short(stage) * 0.006;
    const sparkles = Array.from({ length: 26 }, () =>
      circle(
        rng.range(0, width),
        rng.range(0, height * 0.7),
        short(stage) * rng.range(0.0015, 0.004),
        '#f3d98b',
        ` fill-opacity="${num(rng.range(0.2, 0.8))}"`,
      ),
    ).join('');
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, glow) +
        circle(centre.x, centre.y, ring, 'none', ` stroke="${gold}" stroke-width="${num(stroke)}"`) +
        circle(
          centre.x,
          centre.y,
          ring * 1.09,
          'none',
          ` stroke="${gold}" stroke-width="${num(stroke / 3)}" stroke-opacity="0.6"`,
        ) +
        sparkles +
        plinth(defs, stage, '#2b2826', '#1c1a19', gold),
    );
  },
};

export const loudLuxury: StyleRecipe = {
  place: placeWith({ size: 0.5, centreX: 0.5, bottom: 0.74, maxTilt: 4 }),
  draw(stage) {
    const { width, height, product, light, rng } = stage;
    const base = stage.base ?? hex(['#c8137e', '#d4126a', '#b0139a'][stage.variant]!);
    const defs = new Defs();
    const centre = centreOf(product);
    const background = defs.radial(
      [
        { offset: 0, colour: lighten(base, 0.3) },
        { offset: 0.55, colour: toHex(base) },
        { offset: 1, colour: darken(base, 0.55) },
      ],
      centre.x / width,
      centre.y / height,
      0.8,
    );
    const gold = defs.linear(GOLD_STOPS, 0, 0, 1, 1);
    const reach = Math.hypot(width, height);
    // A sunburst of pale rays from the product, then bold gold bands cutting across the frame.
    const rays = Array.from({ length: 16 }, (_, i) => {
      const a = (i / 16) * Math.PI * 2;
      const b = a + Math.PI / 28;
      return polygon(
        [
          [centre.x, centre.y],
          [centre.x + Math.cos(a) * reach, centre.y + Math.sin(a) * reach],
          [centre.x + Math.cos(b) * reach, centre.y + Math.sin(b) * reach],
        ],
        '#fff',
        ' fill-opacity="0.09"',
      );
    }).join('');
    const bands = [0.12, 0.3, 0.82].map((at, i) => {
      const x = width * (light === -1 ? at : 1 - at);
      const band = short(stage) * [0.09, 0.035, 0.06][i]! * rng.range(0.8, 1.2);
      const lean = height * 0.45 * -light;
      return polygon(
        [
          [x, 0],
          [x + band, 0],
          [x + band + lean, height],
          [x + lean, height],
        ],
        gold,
        ' fill-opacity="0.9"',
      );
    });
    return svgDocument(
      width,
      height,
      defs,
      rect(0, 0, width, height, background) +
        rays +
        bands.join('') +
        circle(
          centre.x,
          centre.y,
          Math.max(product.width, product.height) * 0.66,
          'none',
          ` stroke="${gold}" stroke-width="${num(short(stage) * 0.014)}"`,
        ) +
        plinth(defs, stage, '#c9a24e', '#e8c97a', '#fff3c4'),
    );
  },
};
