import sharp, { type Sharp } from 'sharp';
import type { Box, Frame } from './geometry.ts';

/** A subject freed from its plain light background: raw RGBA, trimmed to the subject's bounding box. */
export interface Cutout extends Frame {
  data: Buffer;
}

interface RawImage extends Frame {
  data: Buffer;
}

/** The flood fill runs on a reduced copy: the mask is smooth anyway and this keeps it cheap. */
const WORK_SIDE = 768;
/** Every channel this light (after flattening on white) counts as studio background. */
const NEAR_WHITE = 236;
/** ...as long as it is also this grey: a pale pastel product edge is not background. */
const MAX_CHROMA = 20;
/** Pixels this transparent already are background in RGBA inputs. */
const TRANSPARENT = 32;
/** Working-size pixels kept around the subject, so the soft edge is not clipped by the trim. */
const MARGIN = 3;

/**
 * Cuts the subject out of a product photo on a white (or transparent) background.
 * Only near-white pixels connected to the image border are removed, so the product's own whites
 * (a logo, a label) survive. Rejects with sharp's error when the input is not a decodable image.
 */
export async function cutOut(input: Buffer, maxSide: number): Promise<Cutout> {
  const full = await decodeRgba(sharp(input, { autoOrient: true }), maxSide);
  const work =
    Math.max(full.width, full.height) > WORK_SIDE
      ? await decodeRgba(
          sharp(full.data, { raw: { width: full.width, height: full.height, channels: 4 } }),
          WORK_SIDE,
        )
      : full;
  const mask = subjectMask(work);
  const workBox = boundingBox(mask, work.width, work.height);
  if (!workBox) return full; // nothing but background: keep the picture rather than render nothing
  const softMask = await scaleMask(mask, work, full);
  return applyMask(full, softMask, scaleBox(workBox, work, full));
}

async function decodeRgba(image: Sharp, maxSide: number): Promise<RawImage> {
  const { data, info } = await image
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * A photo whose border is mostly transparent has had its background removed already: then only
 * transparency counts as background, or a white product on it (a white bottle) would be flooded.
 */
function hasTransparentBorder({ data, width, height }: RawImage): boolean {
  let transparent = 0;
  const border = [
    ...Array.from({ length: width }, (_, x) => [x, (height - 1) * width + x]),
    ...Array.from({ length: height }, (_, y) => [y * width, y * width + width - 1]),
  ].flat();
  for (const pixel of border) if (data[pixel * 4 + 3]! < TRANSPARENT) transparent++;
  return transparent > border.length / 2;
}

/** 1 where a pixel looks like studio background, judged once per pixel before the fill. */
function backgroundPixels(image: RawImage): Uint8Array {
  const { data, width, height } = image;
  const alphaOnly = hasTransparentBorder(image);
  const background = new Uint8Array(width * height);
  for (let pixel = 0, offset = 0; pixel < background.length; pixel++, offset += 4) {
    const alpha = data[offset + 3]!;
    if (alpha < TRANSPARENT) {
      background[pixel] = 1;
      continue;
    }
    if (alphaOnly) continue;
    // Flatten on white so a half-transparent light edge is judged as it would look on paper.
    const cover = alpha / 255;
    const paper = 255 * (1 - cover);
    const r = data[offset]! * cover + paper;
    const g = data[offset + 1]! * cover + paper;
    const b = data[offset + 2]! * cover + paper;
    const low = Math.min(r, g, b);
    if (low >= NEAR_WHITE && Math.max(r, g, b) - low <= MAX_CHROMA) background[pixel] = 1;
  }
  return background;
}

/** 255 for the subject, 0 for background reachable from the border (4-connected flood fill). */
function subjectMask(image: RawImage): Uint8Array {
  const { width, height } = image;
  const background = backgroundPixels(image);
  const mask = new Uint8Array(width * height).fill(255);
  const stack = new Int32Array(width * height);
  let size = 0;
  const visit = (pixel: number) => {
    if (background[pixel] === 1 && mask[pixel] === 255) {
      mask[pixel] = 0;
      stack[size++] = pixel;
    }
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  while (size > 0) {
    const pixel = stack[--size]!;
    const x = pixel % width;
    if (x > 0) visit(pixel - 1);
    if (x < width - 1) visit(pixel + 1);
    if (pixel >= width) visit(pixel - width);
    if (pixel < (height - 1) * width) visit(pixel + width);
  }
  return mask;
}

function boundingBox(mask: Uint8Array, width: number, height: number): Box | null {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (mask[row + x] === 0) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      bottom = y;
    }
  }
  if (right < 0) return null;
  left = Math.max(0, left - MARGIN);
  top = Math.max(0, top - MARGIN);
  right = Math.min(width - 1, right + MARGIN);
  bottom = Math.min(height - 1, bottom + MARGIN);
  return { left, top, width: right - left + 1, height: bottom - top + 1 };
}

function scaleBox(box: Box, from: RawImage, to: RawImage): Box {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const left = Math.floor(box.left * sx);
  const top = Math.floor(box.top * sy);
  const right = Math.min(to.width, Math.ceil((box.left + box.width) * sx));
  const bottom = Math.min(to.height, Math.ceil((box.top + box.height) * sy));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * Blurs the hard mask for a soft edge, then chokes it (2x - 255) so the edge ramp lies inside the
 * subject: otherwise a rim of the old white background shows as a halo on dark backdrops.
 */
async function scaleMask(mask: Uint8Array, work: RawImage, full: RawImage): Promise<Buffer> {
  // Two pipelines because sharp always resizes before it blurs: the blur must happen at working size.
  const soft = await sharp(mask, { raw: { width: work.width, height: work.height, channels: 1 } })
    .blur(1.2)
    .linear(2, -255)
    .extractChannel(0) // sharp otherwise hands a one-band input back as three-band sRGB
    .raw()
    .toBuffer();
  if (work === full) return soft;
  return sharp(soft, { raw: { width: work.width, height: work.height, channels: 1 } })
    .resize(full.width, full.height, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/** Multiplies the source alpha by the mask, over the trimmed box only. */
function applyMask(full: RawImage, mask: Buffer, box: Box): Cutout {
  const data = Buffer.alloc(box.width * box.height * 4);
  for (let y = 0; y < box.height; y++) {
    const sourceRow = (box.top + y) * full.width + box.left;
    const targetRow = y * box.width;
    full.data.copy(data, targetRow * 4, sourceRow * 4, (sourceRow + box.width) * 4);
    for (let x = 0; x < box.width; x++) {
      const alpha = (targetRow + x) * 4 + 3;
      data[alpha] = (data[alpha]! * mask[sourceRow + x]!) / 255;
    }
  }
  return { data, width: box.width, height: box.height };
}
