// Pixel layers of a shot: a cut-out subject scaled, tilted and placed, and its drop shadow.
import sharp, { type OverlayOptions } from 'sharp';
import type { Light, Placement } from './backdrop-kit.ts';
import type { Cutout } from './cutout.ts';
import type { Box, Frame } from './geometry.ts';

/** Raw RGBA pixels placed on the frame. */
export interface Layer extends Box {
  data: Buffer;
}

/** Drop shadows are blurred at a quarter size: a wide blur at 4K would cost seconds, and it is a blur. */
const SHADOW_REDUCTION = 4;
const SHADOW_OPACITY = 0.4;
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

function fittedSize(subject: Cutout, placement: Placement): { width: number; height: number } {
  const scale = Math.min(placement.boxWidth / subject.width, placement.boxHeight / subject.height);
  return {
    width: Math.max(1, Math.round(subject.width * scale)),
    height: Math.max(1, Math.round(subject.height * scale)),
  };
}

/** Where the product sits before its tilt: what backdrops align plinths and floor shadows to. */
export function unrotatedBox(subject: Cutout, placement: Placement): Box {
  const { width, height } = fittedSize(subject, placement);
  return { left: placement.centreX - width / 2, top: placement.bottom - height, width, height };
}

export async function placeSubject(subject: Cutout, placement: Placement): Promise<Layer> {
  const box = unrotatedBox(subject, placement);
  // Rotate at cutout size, then scale: sharp would rotate after resizing, and rotating an upscaled
  // 4K product interpolates several times the pixels for the same result.
  const turned = await rotated(subject, placement.tilt);
  const scale = box.width / subject.width;
  const width = Math.max(1, Math.round(turned.width * scale));
  const height = Math.max(1, Math.round(turned.height * scale));
  const data = await sharp(turned.data, { raw: { width: turned.width, height: turned.height, channels: 4 } })
    .resize(width, height, { fit: 'fill' })
    .raw()
    .toBuffer();
  // Rotation grows the canvas: keep the subject's centre where the unrotated box put it.
  return {
    data,
    width,
    height,
    left: Math.round(box.left + (box.width - width) / 2),
    top: Math.round(box.top + (box.height - height) / 2),
  };
}

async function rotated(subject: Cutout, degrees: number): Promise<Cutout> {
  if (degrees === 0) return subject;
  const { data, info } = await sharp(subject.data, {
    raw: { width: subject.width, height: subject.height, channels: 4 },
  })
    .rotate(degrees, { background: TRANSPARENT })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * The subject's silhouette, black, blurred and nudged away from the light. Drawn from the cutout at a
 * quarter of the placed size (and upscaled with a cheap kernel, it is a blur) rather than from the
 * placed layer, which at 4K would mean shrinking and blurring megapixels per shot.
 */
export async function dropShadow(
  subject: Cutout,
  placement: Placement,
  layer: Layer,
  frame: Frame,
  light: Light,
): Promise<Layer> {
  const short = Math.min(frame.width, frame.height);
  const sigma = Math.max(0.6, (short * 0.014) / SHADOW_REDUCTION);
  const pad = Math.ceil(sigma * 3);
  const box = unrotatedBox(subject, placement);
  const small = await sharp(subject.data, {
    raw: { width: subject.width, height: subject.height, channels: 4 },
  })
    .resize(Math.ceil(box.width / SHADOW_REDUCTION), Math.ceil(box.height / SHADOW_REDUCTION), {
      fit: 'fill',
    })
    .rotate(placement.tilt, { background: TRANSPARENT })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: TRANSPARENT })
    .blur(sigma)
    .linear([0, 0, 0, SHADOW_OPACITY], [0, 0, 0, 0])
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = small.info.width * SHADOW_REDUCTION;
  const height = small.info.height * SHADOW_REDUCTION;
  const data = await sharp(small.data, {
    raw: { width: small.info.width, height: small.info.height, channels: 4 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  // Centre the shadow on the placed layer, then offset it.
  return {
    data,
    width,
    height,
    left: Math.round(layer.left + (layer.width - width) / 2 - light * short * 0.02),
    top: Math.round(layer.top + (layer.height - height) / 2 + short * 0.015),
  };
}

/** sharp refuses overlays larger than the base image (offsets may spill): crop such a layer to the frame. */
function clipToFrame(layer: Layer, frame: Frame): Layer {
  if (layer.width <= frame.width && layer.height <= frame.height) return layer;
  const left = Math.max(0, -layer.left);
  const top = Math.max(0, -layer.top);
  const width = Math.min(layer.width - left, frame.width);
  const height = Math.min(layer.height - top, frame.height);
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const start = ((top + y) * layer.width + left) * 4;
    layer.data.copy(data, y * width * 4, start, start + width * 4);
  }
  return { data, width, height, left: layer.left + left, top: layer.top + top };
}

/** A layer as a sharp overlay, cropped to the frame when it is larger. */
export function toOverlay(layer: Layer, frame: Frame): OverlayOptions {
  const clipped = clipToFrame(layer, frame);
  return {
    input: clipped.data,
    raw: { width: clipped.width, height: clipped.height, channels: 4 },
    left: clipped.left,
    top: clipped.top,
  };
}
