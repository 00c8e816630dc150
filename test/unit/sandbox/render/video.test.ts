import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InputImageError } from '../../../../src-main/sandbox/render/shots.ts';
import {
  FPS,
  findFfmpeg,
  pickAspectRatio,
  renderVideo,
  type VideoRenderInput,
  videoFrameSize,
} from '../../../../src-main/sandbox/render/video.ts';
import { watermarkOverlay } from '../../../../src-main/sandbox/render/watermark.ts';
import { FRAME_RATE } from '../../../../src-renderer/src/review/video-transport.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../../support/static-server.ts';

const execFileAsync = promisify(execFile);
const hasFfmpeg = findFfmpeg() !== null;

let dir: string;
let images: Buffer[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-video-test-'));
  images = await Promise.all(
    [PRODUCT_PHOTOS.capRed, PRODUCT_PHOTOS.mug, PRODUCT_PHOTOS.tote].map((photo) =>
      readFile(join(PRODUCT_FIXTURES_DIR, photo)),
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function video(overrides: Partial<VideoRenderInput> = {}): VideoRenderInput {
  return {
    images: images.slice(0, 1),
    duration: 5,
    resolution: '480p',
    aspectRatio: '16:9',
    music: false,
    seed: 'vid_test',
    ...overrides,
  };
}

/** An MP4 starts with its ftyp box: 4 bytes of size, then the type. */
async function expectMp4(file: string): Promise<void> {
  const bytes = await readFile(file);
  expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
}

async function probe(file: string) {
  const { stdout } = await execFileAsync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0'],
    ...['-show_entries', 'stream=codec_name,width,height,pix_fmt:format=duration', '-of', 'json', file],
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: { codec_name: string; width: number; height: number; pix_fmt: string }[];
    format: { duration: string };
  };
  return { ...parsed.streams[0]!, duration: Number(parsed.format.duration) };
}

/** Each stream's kind, codec and frame rate, as ffprobe reads them. */
async function probeStreams(file: string) {
  const { stdout } = await execFileAsync('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,r_frame_rate', '-of', 'json', file],
  ]);
  return (
    JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; r_frame_rate: string }[] }
  ).streams;
}

/** The frame at `seconds` as 8-bit grey pixels, decoded by ffmpeg. */
async function greyFrame(file: string, seconds: number): Promise<Buffer> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    [
      ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
    ],
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** Pixels far lighter than the plain grey of the test image: the white strokes of a SANDBOX mark. */
function markPixels(frame: Buffer, grey: number): number {
  return frame.reduce((count, value) => (value - grey > 80 ? count + 1 : count), 0);
}

describe('pickAspectRatio', () => {
  it.each([
    [1920, 1080, '16:9'],
    [1080, 1920, '9:16'],
    [1000, 1000, '1:1'],
    [2560, 1080, '21:9'],
    [5000, 1000, '21:9'],
    [1024, 768, '4:3'],
    [768, 1024, '3:4'],
    [1200, 1000, '4:3'],
    [1360, 1190, '1:1'],
  ] as const)('%ix%i -> %s', (width, height, ratio) => {
    expect(pickAspectRatio(width, height)).toBe(ratio);
  });

  it('rejects a size that is not one', () => {
    expect(() => pickAspectRatio(0, 100)).toThrow(RangeError);
  });
});

describe('videoFrameSize', () => {
  it.each([
    ['1080p', '16:9', 1920, 1080],
    ['1080p', '21:9', 2520, 1080],
    ['720p', '9:16', 720, 1280],
    ['480p', '9:16', 480, 854],
    ['480p', '1:1', 480, 480],
    ['720p', '4:3', 960, 720],
  ] as const)('%s %s is %ix%i', (resolution, ratio, width, height) => {
    expect(videoFrameSize(resolution, ratio)).toEqual({ width, height });
  });
});

const FFMPEG_SUITE = hasFfmpeg
  ? 'renderVideo with ffmpeg'
  : 'renderVideo with ffmpeg (skipped: ffmpeg/ffprobe not on PATH)';

describe.skipIf(!hasFfmpeg)(FFMPEG_SUITE, () => {
  it.each([
    [5, '480p', '16:9', 1, 854, 480],
    [10, '720p', '9:16', 3, 720, 1280],
  ] as const)(
    'renders %is %s %s from %i image(s) as a %ix%i H.264 MP4',
    async (duration, resolution, aspectRatio, count, width, height) => {
      const out = join(dir, `ffmpeg-${width}x${height}.mp4`);
      const input = video({ duration, resolution, aspectRatio, images: images.slice(0, count) });
      await expect(renderVideo(input, out)).resolves.toEqual({ renderer: 'ffmpeg' });
      await expectMp4(out);
      const info = await probe(out);
      expect({
        codec: info.codec_name,
        width: info.width,
        height: info.height,
        pix_fmt: info.pix_fmt,
      }).toEqual({
        codec: 'h264',
        width,
        height,
        pix_fmt: 'yuv420p',
      });
      expect(Math.abs(info.duration - duration)).toBeLessThanOrEqual(0.2);
    },
  );

  it('has a sound track (AAC) when music is on and none when it is off, at the player’s frame rate', async () => {
    expect(FPS).toBe(FRAME_RATE);
    const withMusic = join(dir, 'music-on.mp4');
    const silent = join(dir, 'music-off.mp4');
    await renderVideo(video({ music: true }), withMusic, 'ffmpeg');
    await renderVideo(video({ music: false }), silent, 'ffmpeg');
    expect(await probeStreams(withMusic)).toEqual([
      { codec_type: 'video', codec_name: 'h264', r_frame_rate: `${FRAME_RATE}/1` },
      { codec_type: 'audio', codec_name: 'aac', r_frame_rate: '0/0' },
    ]);
    expect(await probeStreams(silent)).toEqual([
      { codec_type: 'video', codec_name: 'h264', r_frame_rate: `${FRAME_RATE}/1` },
    ]);
    // The track is heard, not a silent stream: its mean volume is well above digital silence.
    const { stderr } = await execFileAsync('ffmpeg', [
      ...['-hide_banner', '-i', withMusic, '-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-'],
    ]);
    const mean = Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)?.[1]);
    expect(mean).toBeGreaterThan(-40);
  });

  it('shows one SANDBOX mark, whether or not the image already carries it as a sandbox shot does', async () => {
    const grey = 120;
    const plain = await sharp({
      create: { width: 1280, height: 720, channels: 3, background: { r: grey, g: grey, b: grey } },
    })
      .png()
      .toBuffer();
    const shot = await sharp(plain)
      .composite([watermarkOverlay(1280, 720)])
      .png()
      .toBuffer();
    const fromPlain = join(dir, 'mark-plain.mp4');
    const fromShot = join(dir, 'mark-shot.mp4');
    await renderVideo(video({ images: [plain], seed: 'mark' }), fromPlain, 'ffmpeg');
    await renderVideo(video({ images: [shot], seed: 'mark' }), fromShot, 'ffmpeg');
    const plainMark = markPixels(await greyFrame(fromPlain, 2.5), grey);
    const shotMark = markPixels(await greyFrame(fromShot, 2.5), grey);
    // An image of the user's own is marked too; a shot's own mark is not joined by a second one.
    expect(plainMark).toBeGreaterThan(100);
    expect(shotMark).toBeGreaterThan(plainMark * 0.8);
    expect(shotMark).toBeLessThan(plainMark * 1.3);
    // The pan never carries the mark out of the frame: it is whole at the start and at the end too.
    for (const seconds of [0, 4.9]) {
      const edge = markPixels(await greyFrame(fromShot, seconds), grey);
      expect(edge, `${seconds} s`).toBeGreaterThan(shotMark * 0.8);
      expect(edge, `${seconds} s`).toBeLessThan(shotMark * 1.2);
    }
  });

  it('rejects an image it cannot decode', async () => {
    const out = join(dir, 'broken.mp4');
    const render = renderVideo(video({ images: [images[0]!, Buffer.from('not a picture')] }), out, 'ffmpeg');
    await expect(render).rejects.toBeInstanceOf(InputImageError);
    await expect(render).rejects.toThrow('video image 2 is not a decodable image');
  });
});

describe('renderVideo without ffmpeg', () => {
  it('copies the bundled MP4 when asked to', async () => {
    const out = join(dir, 'bundled.mp4');
    await expect(renderVideo(video(), out, 'bundled')).resolves.toEqual({ renderer: 'bundled' });
    await expectMp4(out);
  });

  it.skipIf(!hasFfmpeg)('bundles a placeholder with a sound track for music, and a silent one', async () => {
    const withMusic = join(dir, 'bundled-music.mp4');
    const silent = join(dir, 'bundled-silent.mp4');
    await renderVideo(video({ music: true }), withMusic, 'bundled');
    await renderVideo(video({ music: false }), silent, 'bundled');
    expect((await probeStreams(withMusic)).map((stream) => [stream.codec_type, stream.r_frame_rate])).toEqual(
      [
        ['video', `${FRAME_RATE}/1`],
        ['audio', '0/0'],
      ],
    );
    expect((await probeStreams(silent)).map((stream) => [stream.codec_type, stream.r_frame_rate])).toEqual([
      ['video', `${FRAME_RATE}/1`],
    ]);
  });

  it('falls back to the bundled MP4 on auto, and refuses an explicit ffmpeg, when PATH has no ffmpeg', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(dir, 'empty-bin');
    vi.resetModules(); // findFfmpeg caches its lookup per module instance
    try {
      const fresh = await import('../../../../src-main/sandbox/render/video.ts');
      expect(fresh.findFfmpeg()).toBeNull();
      const out = join(dir, 'auto.mp4');
      await expect(fresh.renderVideo(video(), out)).resolves.toEqual({ renderer: 'bundled' });
      await expectMp4(out);
      await expect(fresh.renderVideo(video(), out, 'ffmpeg')).rejects.toThrow('ffmpeg is not on PATH');
    } finally {
      process.env.PATH = path;
    }
  });
});
