import { createHash } from 'node:crypto';
import sharp, { type OverlayOptions } from 'sharp';
import { LONG_SIDE_PX, parseAspectRatio, type Quality, type ShootStyle, STUDIO_STYLES } from '../rules.ts';
import type { Light, Placement } from './backdrop-kit.ts';
import { STYLE_RECIPES } from './backdrops.ts';
import { parseHexColour, type Rgb } from './colour.ts';
import { type Cutout, cutOut } from './cutout.ts';
import type { Frame } from './geometry.ts';
import { dropShadow, type Layer, placeSubject, toOverlay, unrotatedBox } from './layers.ts';
import { seededRandom } from './random.ts';
import { watermarkOverlay } from './watermark.ts';

/** An input buffer sharp cannot decode as an image: the client's fault, not the renderer's. */
export class InputImageError extends Error {
  override name = 'InputImageError';
}

export interface ShotRenderInput {
  /** Raw bytes fetched from the product URLs (first = hero), 1..8. */
  productImages: Buffer[];
  /** Present for mode with_model. */
  modelImage?: Buffer;
  style: ShootStyle;
  aspectRatio: string;
  quality: Quality;
  /** '#rgb' or '#rrggbb'; honoured only for STUDIO_STYLES. */
  backgroundColor?: string;
  /** 1, 4 or 6. */
  shots: number;
  /** The job id: the same seed renders the same pixels. */
  seed: string;
}

export interface RenderedShot {
  /** JPEG. */
  image: Buffer;
  /** JPEG, long side 320. */
  thumbnail: Buffer;
  width: number;
  height: number;
}

interface Subjects {
  products: Cutout[];
  model?: Cutout;
}

interface ShootContext {
  input: ShotRenderInput;
  frame: Frame;
  subjects: Subjects;
  base?: Rgb;
}

/** mozjpeg would shave ~10% off the bytes but costs several times the encode time. */
const JPEG_OPTIONS = { quality: 85, mozjpeg: false } as const;
const THUMBNAIL_SIDE = 320;
/** No product is drawn larger than this share of the long side, so it is never cut out larger. */
const PRODUCT_SHARE = 0.75;

export async function renderShots(input: ShotRenderInput): Promise<RenderedShot[]> {
  const frame = frameSize(input.aspectRatio, LONG_SIDE_PX[input.quality]);
  const subjects = await cutOutSubjects(input, Math.max(frame.width, frame.height));
  const base =
    input.backgroundColor && STUDIO_STYLES.includes(input.style)
      ? parseHexColour(input.backgroundColor)
      : undefined;
  const context: ShootContext = { input, frame, subjects, base };
  return Promise.all(Array.from({ length: input.shots }, (_, index) => renderShot(context, index)));
}

/** The requested ratio with its long side at the quality's size. */
export function frameSize(aspectRatio: string, longSide: number): Frame {
  const { width, height } = parseAspectRatio(aspectRatio);
  return width >= height
    ? { width: longSide, height: Math.round((longSide * height) / width) }
    : { width: Math.round((longSide * width) / height), height: longSide };
}

/**
 * Decodes and cuts out every input before any drawing, so a bad input fails the whole shoot with
 * a message naming it. Identical inputs (one URL given twice) are cut out once.
 */
async function cutOutSubjects(input: ShotRenderInput, longSide: number): Promise<Subjects> {
  const cache = new Map<string, Promise<Cutout>>();
  const cut = (buffer: Buffer, label: string, maxSide: number): Promise<Cutout> => {
    const key = `${createHash('sha1').update(buffer).digest('hex')}:${maxSide}`;
    let pending = cache.get(key);
    if (!pending) {
      pending = cutOut(buffer, maxSide);
      cache.set(key, pending);
    }
    return pending.catch(() => {
      throw new InputImageError(`${label} is not a decodable image`);
    });
  };
  const productSide = Math.round(longSide * PRODUCT_SHARE);
  const jobs = input.productImages.map((buffer, i) => cut(buffer, `product image ${i + 1}`, productSide));
  if (input.modelImage) jobs.push(cut(input.modelImage, 'model image', longSide));
  // allSettled, then the first failure in input order: the error names the same input on every run.
  const settled = await Promise.allSettled(jobs);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  const cutouts = settled.map((result) => (result as PromiseFulfilledResult<Cutout>).value);
  const products = cutouts.slice(0, input.productImages.length);
  return input.modelImage ? { products, model: cutouts.at(-1)! } : { products };
}

async function renderShot(context: ShootContext, index: number): Promise<RenderedShot> {
  const { input, frame } = context;
  const rng = seededRandom(`${input.seed}:${index}`);
  const light: Light = rng.next() < 0.5 ? -1 : 1;
  const variant = rng.int(3);
  const recipe = STYLE_RECIPES[input.style];
  // Cycle through the inputs: shot 0 shows the hero image.
  const product = context.subjects.products[index % context.subjects.products.length]!;
  const styled = recipe.place(frame, rng, light, product.width / product.height);
  const { layers, placement } = await subjectLayers(context, product, styled, light);
  const backdrop = recipe.draw({
    ...frame,
    rng,
    light,
    variant,
    base: context.base,
    product: unrotatedBox(product, placement),
  });
  const overlays: OverlayOptions[] = layers.map((layer) => toOverlay(layer, frame));
  const image = await sharp(Buffer.from(backdrop))
    .composite([...overlays, watermarkOverlay(frame.width, frame.height)])
    .jpeg(JPEG_OPTIONS)
    .toBuffer();
  const thumbnail = await sharp(image)
    .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: 'inside' })
    .jpeg(JPEG_OPTIONS)
    .toBuffer();
  return { image, thumbnail, width: frame.width, height: frame.height };
}

/** The subjects in paint order, each under its shadow; with a model the product moves aside. */
async function subjectLayers(
  context: ShootContext,
  product: Cutout,
  styled: Placement,
  light: Light,
): Promise<{ layers: Layer[]; placement: Placement }> {
  const { frame, subjects } = context;
  const layers: Layer[] = [];
  let placement = styled;
  if (subjects.model) {
    const modelAt = modelPlacement(frame, light);
    const model = await placeSubject(subjects.model, modelAt);
    layers.push(await dropShadow(subjects.model, modelAt, model, frame, light), model);
    placement = besideModel(frame, styled, light);
  }
  const productLayer = await placeSubject(product, placement);
  layers.push(await dropShadow(product, placement, productLayer, frame, light), productLayer);
  return { layers, placement };
}

/** The model stands on the key-light side, cropped by the bottom edge like a half-length portrait. */
function modelPlacement(frame: Frame, light: Light): Placement {
  return {
    centreX: frame.width * (0.5 + light * 0.22),
    bottom: frame.height,
    boxWidth: frame.width * 0.5,
    boxHeight: frame.height * 0.92,
    tilt: 0,
  };
}

/** With a model in the picture the product shrinks and takes the other half. */
function besideModel(frame: Frame, placement: Placement, light: Light): Placement {
  return {
    ...placement,
    centreX: frame.width * (0.5 - light * 0.22),
    boxWidth: Math.min(placement.boxWidth * 0.75, frame.width * 0.42),
    boxHeight: placement.boxHeight * 0.75,
  };
}
