import { readFile, stat } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import type { Recipe } from '../../shared/export-recipe.ts';
import type { ExportItem } from './export-item.ts';
import type { Dimensions } from './geometry.ts';
import { fitInside } from './geometry.ts';
import { embedIccInJpeg, embedIccInPng, srgbProfile } from './icc.ts';
import type { PlannedFile } from './plan.ts';
import { type PreflightCheck, pixelChecks } from './plan-checks.ts';
import { buildXmp } from './xmp.ts';

// One source decoded once, then each recipe's file made from its pixels. The decode makes the pixels
// upright and sRGB (sharp converts from an embedded profile); every file is then written with the sRGB
// profile attached, and with our XMP only: the source's EXIF, GPS, IPTC and XMP are left behind unless a
// recipe keeps them. sharp does the work on libuv's threads, so the event loop stays free.

export interface DecodedSource {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
  hasAlpha: boolean;
}

/**
 * `flattenOn`: transparency laid on this colour, for a look at the pixels as a background shows them.
 *
 * The file is read by Node, so that a missing or unreadable one fails with the system's code (said in
 * words by fs-refusal.ts); a decode that fails is said in fixed words, never with libvips' message: that
 * is one for the whole process, and may be another file's (ingest/decode-gate.ts).
 */
export async function decodeSource(file: string, flattenOn?: string): Promise<DecodedSource> {
  const bytes = await readFile(file);
  const oriented = sharp(bytes, { failOn: 'error' }).autoOrient();
  const { data, info } = await (flattenOn ? oriented.flatten({ background: flattenOn }) : oriented)
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw new Error('the image does not decode: its data is damaged or cut short');
    });
  return {
    data,
    info: { width: info.width, height: info.height, channels: info.channels },
    hasAlpha: info.channels === 4,
  };
}

export interface RenderedFile {
  bytes: Buffer;
  width: number;
  height: number;
  /** Pre-flight checks of the pixels (the white background), before the file is written. */
  checks: PreflightCheck[];
}

function parseColour(hex: string): { r: number; g: number; b: number; alpha: number } {
  return {
    r: Number.parseInt(hex.slice(1, 3), 16),
    g: Number.parseInt(hex.slice(3, 5), 16),
    b: Number.parseInt(hex.slice(5, 7), 16),
    alpha: 1,
  };
}

function sameSize(a: Dimensions, b: Dimensions): boolean {
  return a.width === b.width && a.height === b.height;
}

type FocusPoint = NonNullable<ExportItem['focus']>;

/**
 * The source covering the frame, cropped around the subject: the designer's focus point when there is one,
 * else where sharp's attention strategy finds it (skin, saturation, luminance), never the canvas's centre.
 */
function cropped(pipeline: Sharp, source: Dimensions, target: Dimensions, focus: FocusPoint | null): Sharp {
  if (!focus) return pipeline.resize(target.width, target.height, { fit: 'cover', position: 'attention' });
  const scale = Math.max(target.width / source.width, target.height / source.height);
  const width = Math.max(target.width, Math.round(source.width * scale));
  const height = Math.max(target.height, Math.round(source.height * scale));
  const clamp = (value: number, most: number) => Math.min(Math.max(0, Math.round(value)), most);
  return pipeline.resize(width, height, { fit: 'fill' }).extract({
    left: clamp(focus.x * width - target.width / 2, width - target.width),
    top: clamp(focus.y * height - target.height / 2, height - target.height),
    width: target.width,
    height: target.height,
  });
}

function resized(source: DecodedSource, planned: PlannedFile): Sharp {
  const pipeline = sharp(source.data, { raw: source.info });
  const { size, allowUpscale } = planned.recipe;
  const target = { width: planned.width, height: planned.height };
  if (size.kind === 'exact' && size.fit === 'crop') {
    return cropped(pipeline, source.info, target, planned.item.focus ?? null);
  }
  if (size.kind === 'exact' && size.fit === 'pad') {
    const inner = fitInside(source.info, target, allowUpscale);
    const fitted = sameSize(inner, source.info)
      ? pipeline
      : pipeline.resize(inner.width, inner.height, { fit: 'fill' });
    if (sameSize(inner, target)) return fitted;
    const left = Math.floor((target.width - inner.width) / 2);
    const top = Math.floor((target.height - inner.height) / 2);
    return fitted.extend({
      left,
      top,
      right: target.width - inner.width - left,
      bottom: target.height - inner.height - top,
      background: parseColour(size.padColour),
    });
  }
  if (sameSize(target, source.info)) return pipeline;
  return pipeline.resize(target.width, target.height, { fit: 'fill' });
}

/**
 * How every JPEG is encoded. libjpeg-turbo, not mozjpeg (mozjpeg's trellis search costs several times the
 * encode). Baseline Huffman tables, not optimised ones: the optimising pass took half of a 2K encode's
 * time (47 ms of 94 here) for files 8 % smaller; the channels recompress what they receive, and none
 * comes near its size limit with a 2K JPEG (300 KB against Amazon's 10 MB). Chroma 4:2:0, as cameras and
 * the channels' own copies are; 4:4:4 made the encode 3 x slower. The bench's bare loop encodes the same.
 */
export const JPEG_ENCODING = { mozjpeg: false, optimiseCoding: false, chromaSubsampling: '4:2:0' } as const;

/** The encoder for the file's extension (the plan's: an Original keeps its source's format). */
function encoded(pipeline: Sharp, recipe: Recipe, ext: string): Sharp {
  switch (ext) {
    case 'jpg':
      return pipeline.jpeg({
        ...JPEG_ENCODING,
        quality: 'quality' in recipe.format ? recipe.format.quality : 92,
      });
    case 'webp':
      return pipeline.webp({ quality: 'quality' in recipe.format ? recipe.format.quality : 90 });
    case 'avif':
      return pipeline.avif({ quality: 'quality' in recipe.format ? recipe.format.quality : 60 });
    case 'tif':
      return pipeline.tiff();
    case 'gif':
      return pipeline.gif();
    default:
      return pipeline.png();
  }
}

/** The darkest colour value along the image's four one-pixel edges. */
function edgeMinOf(pixels: Buffer, info: DecodedSource['info']): number {
  const { width, height, channels } = info;
  // The edges are a few thousand pixels: read here, in a loop far shorter than a frame.
  let edgeMin = 255;
  const visit = (x: number, y: number) => {
    const offset = (y * width + x) * channels;
    for (let channel = 0; channel < Math.min(channels, 3); channel++)
      edgeMin = Math.min(edgeMin, pixels[offset + channel]!);
  };
  for (let x = 0; x < width; x++) {
    visit(x, 0);
    visit(x, height - 1);
  }
  for (let y = 0; y < height; y++) {
    visit(0, y);
    visit(width - 1, y);
  }
  return edgeMin;
}

/**
 * The edges' lowest channel value (255 when they are pure white) and how much of the frame the product
 * spans on its longer side (what is not within 10 levels of white), measured on the pixels as written.
 */
export async function measureWhiteBackground(
  pixels: Buffer,
  info: DecodedSource['info'],
): Promise<{ edgeMin: number; fill: number }> {
  const edgeMin = edgeMinOf(pixels, info);
  let fill = 0;
  try {
    const { info: trimmed } = await sharp(pixels, { raw: info })
      .trim({ background: '#ffffff', threshold: 10 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    fill = Math.max(trimmed.width / info.width, trimmed.height / info.height);
  } catch {
    // Nothing but white to trim: no product at all.
    fill = 0;
  }
  return { edgeMin, fill };
}

/**
 * Whether a shot's own edges are pure white (RGB 255, a transparent edge taken as white, as the white
 * background a main image is flattened on): what makes it Amazon's main image (plan.ts `mainShots`). One that
 * cannot be read is not.
 */
export async function shotOnWhite(item: ExportItem): Promise<boolean> {
  try {
    // A result's file is never rewritten in place (a new download is a new file): its size and time name
    // its pixels, so the dialog's plan, asked again at each change, decodes each shot once.
    const { size, mtimeMs } = await stat(item.file);
    const key = `${item.file}\u0000${size}\u0000${mtimeMs}`;
    const known = whiteEdges.get(key);
    if (known !== undefined) return known;
    const { data, info } = await decodeSource(item.file, '#ffffff');
    const white = edgeMinOf(data, info) === 255;
    if (whiteEdges.size >= WHITE_EDGES_KEPT) whiteEdges.delete(whiteEdges.keys().next().value!);
    whiteEdges.set(key, white);
    return white;
  } catch {
    return false;
  }
}

/** Shots whose edges were measured, oldest first: a few thousand booleans (a season's picks). */
const whiteEdges = new Map<string, boolean>();
const WHITE_EDGES_KEPT = 5_000;

/** The output's pixels before encoding: resized, cropped or padded, flattened where its format has no alpha. */
function pixelsOf(source: DecodedSource, planned: PlannedFile): Sharp {
  const pipeline = resized(source, planned);
  return source.hasAlpha && planned.ext === 'jpg'
    ? pipeline.flatten({ background: planned.recipe.background })
    : pipeline;
}

/** The output's raw pixels, and the checks made on them (a main image's white background). */
export async function checkedPixels(
  source: DecodedSource,
  planned: PlannedFile,
): Promise<{ pixels: Sharp; checks: PreflightCheck[] }> {
  const pipeline = pixelsOf(source, planned);
  if (!planned.recipe.preflight.whiteBackground) return { pixels: pipeline, checks: [] };
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const checks = pixelChecks(planned.recipe, await measureWhiteBackground(data, raw));
  return { pixels: sharp(data, { raw }), checks };
}

/** The file of one recipe from a decoded source. */
export async function renderFile(source: DecodedSource, planned: PlannedFile): Promise<RenderedFile> {
  const { recipe, item, ext } = planned;
  const checked = await checkedPixels(source, planned);
  let pipeline = checked.pixels;
  const xmp = buildXmp({
    rating: recipe.metadata.rating ? (item.flag === 'rejected' ? -1 : item.stars) : null,
    // A decision of the designer's, as the rating is: written with it.
    label: recipe.metadata.rating ? item.label : null,
    title: recipe.metadata.title ? item.product : null,
    aiGenerated: recipe.metadata.aiSource && item.aiGenerated,
  });
  // JPEG and PNG get the sRGB profile written into the file after encoding (icc.ts); WebP and AVIF
  // through sharp, at the cost of a colour transform.
  const profileAfter = ext === 'jpg' || ext === 'png';
  pipeline = encoded(profileAfter ? pipeline : pipeline.withIccProfile('srgb'), recipe, ext);
  if (xmp) pipeline = pipeline.withXmp(xmp);
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  const bytes = !profileAfter
    ? data
    : ext === 'jpg'
      ? embedIccInJpeg(data, await srgbProfile())
      : embedIccInPng(data, await srgbProfile());
  return { bytes, width: info.width, height: info.height, checks: checked.checks };
}
