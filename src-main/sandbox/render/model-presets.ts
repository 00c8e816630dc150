import sharp from 'sharp';
import { darken, lighten, parseHexColour, type Rgb } from './colour.ts';
import { circle, Defs, ellipse, rect, svgDocument } from './svg.ts';

/** The preset "models" (people) the sandbox lists on GET /v1/models. */
export interface ModelPreset {
  id: string;
  name: string;
  tags: string[];
}

type Hair = 'long' | 'short' | 'bun' | 'bob' | 'buzz';

interface Look {
  skin: string;
  hair: string;
  hairStyle: Hair;
  clothes: string;
  /** A shirt showing in the neckline, for a jacket look; kept below cut-out white or it would be removed. */
  shirt?: string;
}

const PRESETS: (ModelPreset & { look: Look })[] = [
  {
    id: 'model_ava',
    name: 'Ava',
    tags: ['female', 'studio'],
    look: { skin: '#f1c7a5', hair: '#3b2a20', hairStyle: 'long', clothes: '#d9d2c7' },
  },
  {
    id: 'model_ben',
    name: 'Ben',
    tags: ['male', 'streetwear'],
    look: { skin: '#c68c5f', hair: '#1d1713', hairStyle: 'short', clothes: '#2f4a6d' },
  },
  {
    id: 'model_chloe',
    name: 'Chloe',
    tags: ['female', 'lifestyle'],
    look: { skin: '#8d5a3b', hair: '#141012', hairStyle: 'bun', clothes: '#c0553f' },
  },
  {
    id: 'model_daniel',
    name: 'Daniel',
    tags: ['male', 'editorial'],
    look: { skin: '#e8b896', hair: '#6b4a2f', hairStyle: 'short', clothes: '#232326', shirt: '#e2e2e2' },
  },
  {
    id: 'model_emi',
    name: 'Emi',
    tags: ['female', 'casual'],
    look: { skin: '#f3d2b3', hair: '#0f0f12', hairStyle: 'bob', clothes: '#9bb7a0' },
  },
  {
    id: 'model_felix',
    name: 'Felix',
    tags: ['male', 'sport'],
    look: { skin: '#5c3a24', hair: '#0b0b0b', hairStyle: 'buzz', clothes: '#e2b33c' },
  },
];

export const MODEL_PRESETS: ModelPreset[] = PRESETS.map(({ id, name, tags }) => ({ id, name, tags }));

const WIDTH = 768;
const HEIGHT = 1024;

/** A 768 x 1024 JPEG of the preset's stylised half-length figure on white. Throws on an unknown id. */
export async function renderModelPreset(id: string): Promise<Buffer> {
  const preset = PRESETS.find((candidate) => candidate.id === id);
  if (!preset) throw new Error(`unknown model preset: ${id}`);
  return sharp(Buffer.from(figureSvg(preset.look)))
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90, mozjpeg: false })
    .toBuffer();
}

/** Hair that falls behind the head and shoulders, drawn first. */
const HAIR_BACK: Record<Hair, string> = {
  long: 'M232 380 C212 130 556 130 536 380 L566 740 C470 790 298 790 202 740 Z',
  bob: 'M236 380 C216 140 552 140 532 380 L546 580 C450 616 318 616 222 580 Z',
  bun: '',
  short: '',
  buzz: '',
};

/** Hair over the top of the head, drawn after the face. */
const HAIR_FRONT: Record<Hair, string> = {
  long: 'M256 420 C230 140 538 140 512 420 C490 300 420 268 330 296 C298 312 272 350 256 420 Z',
  bob: 'M254 400 C232 146 536 146 514 400 C474 296 294 296 254 400 Z',
  bun: 'M260 380 C248 160 520 160 508 380 C470 290 298 290 260 380 Z',
  short: 'M258 380 C244 150 524 150 510 380 C490 300 430 282 330 290 C296 298 270 330 258 380 Z',
  buzz: 'M266 340 C262 176 506 176 502 340 C462 284 306 284 266 340 Z',
};

function figureSvg(look: Look): string {
  const defs = new Defs();
  const skin = parseHexColour(look.skin);
  const clothes = parseHexColour(look.clothes);
  const torsoFill = defs.linear(
    [
      { offset: 0, colour: darken(clothes, 0.25) },
      { offset: 0.5, colour: lighten(clothes, 0.08) },
      { offset: 1, colour: darken(clothes, 0.3) },
    ],
    0,
    0,
    1,
    0,
  );
  const faceFill = defs.radial(
    [
      { offset: 0, colour: lighten(skin, 0.08) },
      { offset: 1, colour: darken(skin, 0.12) },
    ],
    0.45,
    0.4,
    0.65,
  );
  const shade = darken(skin, 0.25);
  const body =
    (HAIR_BACK[look.hairStyle] ? `<path d="${HAIR_BACK[look.hairStyle]}" fill="${look.hair}"/>` : '') +
    rect(326, 470, 116, 160, darken(skin, 0.08)) +
    ellipse(384, 520, 60, 26, shade, ' fill-opacity="0.5"') +
    `<path d="M70 1024 C70 740 160 640 300 612 L468 612 C608 640 698 740 698 1024 Z" fill="${torsoFill}"/>` +
    neckline(look, skin) +
    ellipse(266, 388, 18, 34, darken(skin, 0.05)) +
    ellipse(502, 388, 18, 34, darken(skin, 0.05)) +
    ellipse(384, 372, 118, 148, faceFill) +
    face(skin) +
    `<path d="${HAIR_FRONT[look.hairStyle]}" fill="${look.hair}"/>` +
    (look.hairStyle === 'bun' ? circle(384, 196, 56, look.hair) : '');
  return svgDocument(WIDTH, HEIGHT, defs, rect(0, 0, WIDTH, HEIGHT, '#ffffff') + body);
}

function neckline(look: Look, skin: Rgb): string {
  const opening = `<path d="M318 612 Q384 712 450 612 Z" fill="${darken(skin, 0.06)}"/>`;
  if (!look.shirt) return opening;
  // A jacket: a shirt wedge in the opening, lapels either side.
  const clothes = parseHexColour(look.clothes);
  return (
    `<path d="M300 612 L384 800 L468 612 Z" fill="${look.shirt}"/>` +
    opening +
    `<path d="M300 612 L384 800 L330 644 Z" fill="${lighten(clothes, 0.12)}"/>` +
    `<path d="M468 612 L384 800 L438 644 Z" fill="${lighten(clothes, 0.12)}"/>`
  );
}

function face(skin: Rgb): string {
  const features = '#2b211c';
  return (
    ellipse(340, 384, 11, 7, features) +
    ellipse(428, 384, 11, 7, features) +
    rect(318, 352, 44, 7, features, ' rx="3.5" fill-opacity="0.7"') +
    rect(406, 352, 44, 7, features, ' rx="3.5" fill-opacity="0.7"') +
    `<path d="M384 400 Q376 440 390 446" fill="none" stroke="${darken(skin, 0.3)}" stroke-width="4" stroke-linecap="round"/>` +
    `<path d="M350 472 Q384 494 418 472" fill="none" stroke="#a5574a" stroke-width="6" stroke-linecap="round"/>`
  );
}
