import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { resourceFile } from '../resources.ts';
import {
  parseAspectRatio,
  VIDEO_ASPECT_RATIOS,
  type VideoAspectRatio,
  type VideoDuration,
  type VideoResolution,
} from '../rules.ts';
import type { Frame } from './geometry.ts';
import { type Random, seededRandom } from './random.ts';
import { InputImageError } from './shots.ts';
import { watermarkOverlay } from './watermark.ts';

export interface VideoRenderInput {
  images: Buffer[];
  duration: VideoDuration;
  resolution: VideoResolution;
  aspectRatio: VideoAspectRatio;
  /** The contract's `music`: a background track, or no audio stream at all. */
  music: boolean;
  /** The job id: the same seed pans the same way. */
  seed: string;
}

export type VideoRenderer = 'auto' | 'ffmpeg' | 'bundled';

/**
 * 3 s 320x180 placeholders for machines without ffmpeg, silent and with the background track: they keep
 * the frame rate, the one mark and the sound of a rendered video, not its size or length. Made once with:
 *   ffmpeg -f lavfi -i gradients=s=320x180:r=24:d=3:speed=0.03 -i mark.png [-f lavfi -i "<MUSIC_SOURCE>"]
 *     -filter_complex "[0][1]overlay=(W-w)/2:(H-h)/2,format=yuv420p" -c:v libx264 -crf 30 [-c:a aac -b:a 64k]
 *     -movflags +faststart -t 3
 * where mark.png is watermarkSvg(200, 44) rendered by sharp and MUSIC_SOURCE is musicSource(3).
 */
const FALLBACK_VIDEO = resourceFile(join('sandbox', 'fallback.mp4'));
const FALLBACK_VIDEO_WITH_MUSIC = resourceFile(join('sandbox', 'fallback-music.mp4'));

const SHORT_SIDE: Record<VideoResolution, number> = { '480p': 480, '720p': 720, '1080p': 1080 };
/**
 * Guess: the contract does not say its videos' frame rate; 24 fps is the usual rate of generated video, and
 * the rate the review player steps by (src-renderer/src/review/video-transport.ts FRAME_RATE).
 */
export const FPS = 24;
/** Frames of each fade out of and into black between stills (a quarter second). */
const DIP_FRAMES = 6;
/** Stills are this much larger than the frame, the room the slow pan moves through. */
const PAN_MARGIN = 0.08;
const STDERR_TAIL = 2000;
/** AAC, which every player and browser plays in an MP4; music needs few bits. */
const AUDIO_ARGS = ['-c:a', 'aac', '-b:a', '96k'];
/** Speed over bytes; yuv420p and +faststart so every player and browser can play it while it downloads. */
const ENCODE_ARGS = [
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-crf',
  '26',
  '-pix_fmt',
  'yuv420p',
  '-movflags',
  '+faststart',
];

const execFileAsync = promisify(execFile);

export async function renderVideo(
  input: VideoRenderInput,
  outFile: string,
  renderer: VideoRenderer = 'auto',
): Promise<{ renderer: 'ffmpeg' | 'bundled' }> {
  if (renderer === 'bundled') return copyFallback(input.music, outFile);
  const ffmpeg = findFfmpeg();
  if (ffmpeg) {
    await renderWithFfmpeg(ffmpeg, input, outFile);
    return { renderer: 'ffmpeg' };
  }
  if (renderer === 'ffmpeg') {
    throw new Error('the ffmpeg video renderer was requested but ffmpeg is not on PATH');
  }
  return copyFallback(input.music, outFile);
}

async function copyFallback(music: boolean, outFile: string): Promise<{ renderer: 'bundled' }> {
  await copyFile(music ? FALLBACK_VIDEO_WITH_MUSIC : FALLBACK_VIDEO, outFile);
  return { renderer: 'bundled' };
}

let ffmpegLookup: { path: string | null } | undefined;

/** ffmpeg's path from PATH, looked up once per process: PATH does not change under a running sandbox. */
export function findFfmpeg(): string | null {
  ffmpegLookup ??= { path: searchPath(process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg') };
  return ffmpegLookup.path;
}

function searchPath(executable: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, executable);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here: keep looking
    }
  }
  return null;
}

/** The nearest supported ratio on a log scale, so 2:1 and 1:2 are judged alike. */
export function pickAspectRatio(width: number, height: number): VideoAspectRatio {
  if (!(width > 0 && height > 0)) throw new RangeError(`not an image size: ${width}x${height}`);
  const target = Math.log(width / height);
  const distance = (ratio: VideoAspectRatio) => {
    const { width: w, height: h } = parseAspectRatio(ratio);
    return Math.abs(Math.log(w / h) - target);
  };
  return VIDEO_ASPECT_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}

/** Short side from the resolution, long side from the ratio, both even as H.264 4:2:0 requires. */
export function videoFrameSize(resolution: VideoResolution, aspectRatio: VideoAspectRatio): Frame {
  const short = SHORT_SIDE[resolution];
  const { width, height } = parseAspectRatio(aspectRatio);
  const long = 2 * Math.round((short * Math.max(width, height)) / Math.min(width, height) / 2);
  return width >= height ? { width: long, height: short } : { width: short, height: long };
}

async function renderWithFfmpeg(ffmpeg: string, input: VideoRenderInput, outFile: string): Promise<void> {
  if (input.images.length === 0) throw new InputImageError('a video needs at least one image');
  const frame = videoFrameSize(input.resolution, input.aspectRatio);
  const frames = input.duration * FPS;
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-video-'));
  try {
    const stills = await Promise.all(input.images.map((image, i) => writeStill(image, i, frame, dir)));
    const graph = filterGraph(stills.length, frames, frame, seededRandom(input.seed));
    // The music is one more input (after the stills, so its index is theirs plus one) and its own output.
    const musicInput = input.music ? ['-f', 'lavfi', '-i', musicSource(input.duration)] : [];
    const musicOutput = input.music ? ['-map', `${stills.length}:a`, ...AUDIO_ARGS] : ['-an'];
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...stills.flatMap((file) => ['-i', file]),
      ...musicInput,
      ...['-filter_complex', graph, '-map', '[slides]', '-r', String(FPS), '-frames:v', String(frames)],
      ...musicOutput,
      ...ENCODE_ARGS,
      outFile,
    ];
    await runFfmpeg(ffmpeg, args, outFile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The background track: a soft A minor chord with a slow swell, faded in and out, synthesised by ffmpeg
 * so the sandbox ships no audio. Quiet on purpose: it proves a track is there without startling anyone.
 */
export function musicSource(seconds: number): string {
  const chord = [220, 261.63, 329.63].map((hz) => `sin(2*PI*${hz}*t)`).join('+');
  const swell = '(0.75+0.25*sin(2*PI*0.25*t))';
  const fadeOut = Math.max(0, seconds - 1);
  return (
    `aevalsrc='0.05*${swell}*(${chord})':s=44100:d=${seconds},` +
    `afade=t=in:d=0.5,afade=t=out:st=${fadeOut}:d=1`
  );
}

/**
 * One still per image, larger than the frame by the pan margin: the image contained (never cropped,
 * a square shot in a 9:16 video keeps its product), centred, over a blurred, darkened cover of itself.
 * The SANDBOX mark goes on the image at its own size, where the sandbox's shots already carry it: a
 * sandbox shot keeps one mark (redrawn over itself), any other image gets the same one, and the video
 * shows one mark that pans with its image. (Overlaying a second, fixed mark on the frames showed two.)
 */
async function writeStill(source: Buffer, index: number, frame: Frame, dir: string): Promise<string> {
  const width = even(frame.width * (1 + PAN_MARGIN));
  const height = even(frame.height * (1 + PAN_MARGIN));
  const file = join(dir, `still-${index}.jpg`);
  try {
    const image = await markImage(source);
    // The blur runs at an eighth of the size: a wide blur at full size would cost far more, for a blur.
    const backdrop = await sharp(image)
      .resize(Math.ceil(width / 8), Math.ceil(height / 8), { fit: 'cover' })
      .blur(4)
      .modulate({ brightness: 0.7 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Contained in the part of the still that every pan position shows, so the image and its mark, in
    // its corner, are always whole in the frame (at the still's full size the pan cut the mark off).
    const inView = {
      width: even(frame.width * (1 - PAN_MARGIN)),
      height: even(frame.height * (1 - PAN_MARGIN)),
    };
    const foreground = await sharp(image).resize(inView.width, inView.height, { fit: 'inside' }).toBuffer();
    const { width: smallWidth, height: smallHeight, channels } = backdrop.info;
    await sharp(backdrop.data, { raw: { width: smallWidth, height: smallHeight, channels } })
      .resize(width, height, { fit: 'fill', kernel: 'linear' })
      .composite([{ input: foreground }])
      .jpeg({ quality: 90, mozjpeg: false })
      .toFile(file);
  } catch {
    throw new InputImageError(`video image ${index + 1} is not a decodable image`);
  }
  return file;
}

/** The image with the mark in its corner, in its own format (a PNG keeps its transparency). */
async function markImage(image: Buffer): Promise<Buffer> {
  const { width, height } = await sharp(image).metadata();
  return sharp(image)
    .composite([watermarkOverlay(width, height)])
    .toBuffer();
}

function even(value: number): number {
  return 2 * Math.round(value / 2);
}

/**
 * Each still is decoded once, looped for its segment and panned by a moving crop (nearly free,
 * unlike zoompan's per-frame rescale); segments dip through black into each other and are
 * concatenated. A dip rather than xfade: xfade doubled the CPU time of the whole encode.
 * Ends in the [slides] label.
 */
function filterGraph(count: number, totalFrames: number, frame: Frame, rng: Random): string {
  const segment = Math.ceil(totalFrames / count);
  const chains = Array.from({ length: count }, (_, i) => {
    const pan = panExpressions(segment, frame, rng);
    const fadeIn = i > 0 ? `,fade=t=in:s=0:n=${DIP_FRAMES}` : '';
    const fadeOut = i < count - 1 ? `,fade=t=out:s=${segment - DIP_FRAMES}:n=${DIP_FRAMES}` : '';
    const label = count === 1 ? 'slides' : `s${i}`;
    return (
      `[${i}]format=yuv420p,loop=loop=${segment - 1}:size=1,setpts=N/${FPS}/TB,` +
      `crop=${frame.width}:${frame.height}:x='${pan.x}':y='${pan.y}'${fadeIn}${fadeOut}[${label}]`
    );
  });
  if (count > 1) {
    const inputs = Array.from({ length: count }, (_, i) => `[s${i}]`).join('');
    chains.push(`${inputs}concat=n=${count}[slides]`);
  }
  return chains.join(';');
}

/** A straight drift across the margin: sideways, up or down, or diagonal, in a seeded direction. */
function panExpressions(frames: number, frame: Frame, rng: Random): { x: string; y: string } {
  const mode = rng.int(3);
  const axis = (span: number, moves: boolean) => {
    if (!moves) return String(even(span / 2));
    const last = Math.max(1, frames - 1);
    return rng.next() < 0.5 ? `${span}*n/${last}` : `${span}-${span}*n/${last}`;
  };
  return {
    x: axis(even(frame.width * PAN_MARGIN), mode !== 1),
    y: axis(even(frame.height * PAN_MARGIN), mode !== 0),
  };
}

async function runFfmpeg(ffmpeg: string, args: string[], outFile: string): Promise<void> {
  try {
    await execFileAsync(ffmpeg, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    await rm(outFile, { force: true });
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    const tail = stderr.length > STDERR_TAIL ? `...${stderr.slice(-STDERR_TAIL)}` : stderr;
    throw new Error(`ffmpeg failed: ${tail || (error as Error).message}`);
  }
}
