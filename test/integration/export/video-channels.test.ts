import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe, parseRecipe } from '../../../src-main/core/export/recipes.ts';
import { type ExportProgress, runExport } from '../../../src-main/core/export/run.ts';
import { runExportInWorker } from '../../../src-main/core/export/run-in-worker.ts';
import {
  AMAZON_VIDEO,
  INSTAGRAM_REELS,
  SHOPIFY_VIDEO,
} from '../../../src-main/core/export/video-channels.ts';
import { probeVideo } from '../../../src-main/core/export/video-probe.ts';
import { specFailures, videoTarget } from '../../../src-main/core/export/video-spec.ts';
import { unpackedPath, videoToolPath } from '../../../src-main/core/export/video-tools.ts';
import { renderVideo } from '../../../src-main/sandbox/render/video.ts';
import { exportItem } from '../../support/export-item.ts';
import { atFrameRate } from '../../support/low-frame-rate.ts';
import { topLevelBoxes } from '../../support/mp4-boxes.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../support/static-server.ts';

// Videos made to their channel's spec by the ffmpeg that ships with the app: the sandbox's 720 x 720,
// 12 fps render without sound exported for Reels and Amazon, a 16:9 clip with sound for Reels over a plain
// colour, and every written file read back by the bundled ffprobe (its own query here, not the app's) and
// its boxes, held against the channel's facts. Then a cancelled transcode, a broken source, and the check
// that refuses a file which is not what the channel takes.

const execFileAsync = promisify(execFile);
const VIDEOS_ONLY = { rule: 'picked', minStars: 0, videos: true, sources: false } as const;
const storyReels = builtInRecipe('story-reels')!;
const amazonVideo = builtInRecipe('amazon-video')!;

let dir: string;
let square: string;
let withSound: string;

/** The written file's facts, from the bundled ffprobe and from its top-level boxes. */
async function channelFacts(file: string) {
  const { stdout } = await execFileAsync(videoToolPath('ffprobe'), [
    ...['-v', 'error', '-show_entries'],
    'stream=codec_type,codec_name,profile,width,height,avg_frame_rate,pix_fmt:format=format_name,duration',
    ...['-of', 'json', file],
  ]);
  const probed = JSON.parse(stdout) as {
    streams: Array<Record<string, string | number>>;
    format: { format_name: string; duration: string };
  };
  const boxes = topLevelBoxes(await readFile(file)).map((box) => box.type);
  return {
    container: probed.format.format_name,
    duration: Number(probed.format.duration),
    video: probed.streams.find((stream) => stream.codec_type === 'video'),
    audio: probed.streams.find((stream) => stream.codec_type === 'audio'),
    moovBeforeMdat: boxes.indexOf('moov') >= 0 && boxes.indexOf('moov') < boxes.indexOf('mdat'),
  };
}

/** One frame of the file, one second in, as raw RGB. */
async function frameAt(file: string) {
  const { stdout } = await execFileAsync(
    videoToolPath('ffmpeg'),
    ['-v', 'error', '-ss', '1', '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return sharp(stdout);
}

async function topStripStats(file: string, rows: number) {
  const frame = await frameAt(file);
  const { width } = await frame.metadata();
  return sharp(await frame.extract({ left: 0, top: 0, width: width!, height: rows }).toBuffer()).stats();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-video-channels-'));
  const image = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.mug));
  square = join(dir, 'square.mp4');
  // What the sandbox renders when ffmpeg is present with music off (720 x 720, no sound), slowed to 12 fps.
  const rendered = join(dir, 'rendered.mp4');
  await renderVideo(
    { images: [image], seed: 'channels', duration: 5, resolution: '720p', aspectRatio: '1:1', music: false },
    rendered,
    'ffmpeg',
  );
  await atFrameRate(rendered, 12, square);
  withSound = join(dir, 'with-sound.mp4');
  await execFileAsync(videoToolPath('ffmpeg'), [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=4'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=4', '-shortest'],
    ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', withSound],
  ]);
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the encoder that ships with the app', () => {
  it('is the npm package’s binary, not the machine’s ffmpeg, and runs from outside an asar', () => {
    for (const tool of ['ffmpeg', 'ffprobe'] as const) {
      const path = videoToolPath(tool);
      expect(path).toContain(`node_modules/@${tool}-installer/${process.platform}-${process.arch}/`);
      expect(path).not.toBe(`/usr/bin/${tool}`);
    }
    expect(unpackedPath('/Applications/Adbatch.app/Contents/Resources/app.asar/node_modules/x/ffmpeg')).toBe(
      '/Applications/Adbatch.app/Contents/Resources/app.asar.unpacked/node_modules/x/ffmpeg',
    );
    expect(unpackedPath('C:\\Adbatch\\resources\\app.asar\\node_modules\\x\\ffmpeg.exe')).toBe(
      'C:\\Adbatch\\resources\\app.asar.unpacked\\node_modules\\x\\ffmpeg.exe',
    );
    expect(unpackedPath('/home/me/adbatch/node_modules/x/ffmpeg')).toBe(
      '/home/me/adbatch/node_modules/x/ffmpeg',
    );
  });
});

describe('videos exported for Reels and Amazon', () => {
  it('makes the sandbox’s square video to each channel’s spec, in the export worker, with progress', async () => {
    const plan = await planExport({
      items: [exportItem({ key: 'mug-video', kind: 'video', file: square, product: 'Mug' })],
      recipes: [storyReels, amazonVideo],
      selection: VIDEOS_ONLY,
      date: '2026-11-27',
    });
    expect(plan.files.map((file) => [file.relativePath, file.copy])).toEqual([
      ['Story and Reels/Mug-classic-01-story.mp4', false],
      ['Amazon video/Mug-classic-01-amazon.mp4', false],
    ]);
    const making: NonNullable<ExportProgress['making']>[] = [];
    const destination = join(dir, 'export');
    const report = await runExportInWorker({
      plan,
      destination,
      onProgress: (progress) => {
        if (progress.making) making.push(progress.making);
      },
    });
    expect(report.status).toBe('done');
    const [reels, amazon] = report.files;
    expect(reels).toMatchObject({ status: 'written', width: 1080, height: 1920 });
    expect(reels!.warnings).toEqual([
      "The video is 720 x 720: it was enlarged 1.50 x to fit Instagram Reels and Stories's 1080 x 1920.",
    ]);
    // Amazon takes 1280 x 720, which the source fills unenlarged; its 5 s stay under Amazon's 6 s.
    expect(amazon).toMatchObject({ status: 'written', width: 1280, height: 720 });
    expect(amazon!.warnings).toEqual(['The video lasts 5 s; Amazon takes at least 6 s.']);

    const reelsFile = await channelFacts(join(destination, reels!.relativePath));
    expect(reelsFile).toMatchObject({
      container: expect.stringContaining('mp4'),
      moovBeforeMdat: true,
      video: {
        codec_name: 'h264',
        profile: 'High',
        width: 1080,
        height: 1920,
        avg_frame_rate: '30/1',
        pix_fmt: 'yuv420p',
      },
      // A silent track: the source has no sound, Reels wants one.
      audio: { codec_name: 'aac' },
    });
    expect(reelsFile.duration).toBeCloseTo(5, 0);
    const amazonFile = await channelFacts(join(destination, amazon!.relativePath));
    expect(amazonFile).toMatchObject({
      moovBeforeMdat: true,
      video: { codec_name: 'h264', profile: 'High', width: 1280, height: 720, avg_frame_rate: '30/1' },
    });
    expect(Number(amazonFile.video!.width) / Number(amazonFile.video!.height)).toBeCloseTo(16 / 9, 2);
    // Amazon wants no sound it does not have.
    expect(amazonFile.audio).toBeUndefined();

    // The room above the square is a blurred copy of the video, not bars: the red mug shows through.
    const blurred = await topStripStats(join(destination, reels!.relativePath), 400);
    expect(blurred.channels[0]!.mean).toBeGreaterThan(40);

    // Progress came for each file as it was made, rising to the end.
    for (const file of plan.files) {
      const fractions = making.filter((step) => step.path === file.relativePath).map((step) => step.fraction);
      expect(fractions.length).toBeGreaterThan(1);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
      expect(fractions.at(-1)).toBe(1);
    }
    // A second run writes nothing: the files are found as they were left.
    const again = await runExportInWorker({ plan, destination });
    expect(again.files.map((file) => file.status)).toEqual(['identical', 'identical']);
  }, 600_000);

  it('keeps a source’s sound, and pads with the recipe’s colour when it asks to', async () => {
    const padded = parseRecipe({
      ...storyReels,
      id: 'reels-white',
      name: 'Reels on white',
      video: { channel: 'instagram-reels', background: 'pad', padColour: '#FFFFFF' },
    });
    const plan = await planExport({
      items: [exportItem({ key: 'clip', kind: 'video', file: withSound })],
      recipes: [padded],
      selection: VIDEOS_ONLY,
      date: '2026-11-27',
    });
    const destination = join(dir, 'export-padded');
    const report = await runExport({ plan, destination });
    expect(report.files[0]).toMatchObject({ status: 'written', width: 1080, height: 1920 });
    const path = join(destination, report.files[0]!.relativePath);
    const facts = await channelFacts(path);
    expect(facts).toMatchObject({
      moovBeforeMdat: true,
      video: { codec_name: 'h264', profile: 'High', width: 1080, height: 1920, avg_frame_rate: '30/1' },
      audio: { codec_name: 'aac' },
    });
    // The source's tone, not silence: its loudest sample is well above zero.
    const { stderr } = await execFileAsync(videoToolPath('ffmpeg'), [
      ...['-hide_banner', '-i', path, '-map', '0:a', '-af', 'volumedetect', '-f', 'null', '-'],
    ]);
    const peak = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)![1]);
    expect(peak).toBeGreaterThan(-30);
    // 16:9 in 9:16: white above and below.
    const white = await topStripStats(path, 400);
    for (const channel of white.channels.slice(0, 3)) {
      expect(channel.mean).toBeGreaterThan(250);
      expect(channel.stdev).toBeLessThan(3);
    }
  }, 600_000);

  it('stops a transcode on cancel and leaves no file and no part of one', async () => {
    const plan = await planExport({
      items: [exportItem({ key: 'mug-video', kind: 'video', file: square })],
      recipes: [storyReels],
      selection: VIDEOS_ONLY,
      date: '2026-11-27',
    });
    const destination = join(dir, 'export-cancelled');
    const controller = new AbortController();
    const report = await runExportInWorker({
      plan,
      destination,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.making) controller.abort();
      },
    });
    expect(report.status).toBe('cancelled');
    expect(report.files).toEqual([]);
    const left = await readdir(destination, { recursive: true, withFileTypes: true });
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  }, 600_000);

  it('refuses a source cut short, with the reason, and writes nothing for it', async () => {
    const cut = join(dir, 'cut.mp4');
    const whole = await readFile(square);
    await writeFile(cut, whole.subarray(0, whole.length - 5000));
    const plan = await planExport({
      items: [exportItem({ key: 'cut', kind: 'video', file: cut })],
      recipes: [amazonVideo],
      selection: VIDEOS_ONLY,
      date: '2026-11-27',
    });
    const destination = join(dir, 'export-cut');
    const report = await runExport({ plan, destination });
    expect(report.files[0]).toMatchObject({ status: 'failed' });
    expect(report.files[0]!.error).toMatch(/cut\.mp4 is cut short: its 'mdat' box should end at/);
    const left = await readdir(destination, { recursive: true, withFileTypes: true });
    expect(left.filter((entry) => entry.isFile())).toEqual([]);
  });
});

describe('the built export worker', () => {
  it('makes a video with the bundled ffmpeg from out/main, as the built app does (npm run build first)', async () => {
    const builtWorker = join(import.meta.dirname, '../../../out/main/export-worker.js');
    if (!existsSync(builtWorker))
      throw new Error('out/main/export-worker.js is missing: run `npm run build` first.');
    const plan = await planExport({
      items: [exportItem({ key: 'mug-video', kind: 'video', file: square })],
      recipes: [amazonVideo],
      selection: VIDEOS_ONLY,
      date: '2026-11-27',
    });
    const destination = join(dir, 'export-built');
    const report = await runExportInWorker({ plan, destination }, pathToFileURL(builtWorker));
    expect(report).toMatchObject({ status: 'done', written: 1, failed: 0 });
    expect(await channelFacts(join(destination, report.files[0]!.relativePath))).toMatchObject({
      moovBeforeMdat: true,
      video: { codec_name: 'h264', profile: 'High', width: 1280, height: 720, avg_frame_rate: '30/1' },
    });
  }, 600_000);
});

describe('the check of a made file', () => {
  it('chooses each channel’s frame: Amazon’s largest the source fills, Shopify’s the source’s own, made even', async () => {
    const probed = (await probeVideo(square)).video!;
    const sized = (width: number, height: number) => ({ ...probed, width, height });
    expect(videoTarget(AMAZON_VIDEO, sized(3840, 2160), true)).toMatchObject({
      width: 1920,
      height: 1080,
      sound: true,
      scale: 0.5,
    });
    // A 1280 px square is shrunk to 1080 high in 1920 x 1080; a 960 px one would be enlarged there, not in 1280 x 720.
    expect(videoTarget(AMAZON_VIDEO, sized(1280, 1280), false)).toMatchObject({ width: 1920, height: 1080 });
    expect(videoTarget(AMAZON_VIDEO, sized(960, 960), false)).toMatchObject({ width: 1280, height: 720 });
    expect(videoTarget(SHOPIFY_VIDEO, sized(5000, 2813), false)).toMatchObject({
      width: 3840,
      height: 2160,
      sound: false,
    });
    expect(videoTarget(SHOPIFY_VIDEO, sized(721, 405), false)).toMatchObject({ width: 720, height: 404 });
  });

  it('names every fact a file lacks for the channel', async () => {
    // The sandbox's render as it is, held against what Reels and Amazon files must be.
    const probed = await probeVideo(square);
    const reels = videoTarget(INSTAGRAM_REELS, probed.video!, false);
    expect(reels).toMatchObject({ width: 1080, height: 1920, fps: 30, sound: true });
    expect(specFailures(INSTAGRAM_REELS, reels, probed, true)).toEqual([
      expect.stringMatching(/^its H\.264 profile is /),
      'it is 720 x 720, not 1080 x 1920',
      'it runs at 12 fps, not 30',
      'it has no sound track; Instagram Reels and Stories wants one',
    ]);
    const amazon = videoTarget(AMAZON_VIDEO, probed.video!, false);
    expect(specFailures(AMAZON_VIDEO, amazon, probed, false)).toEqual([
      expect.stringMatching(/^its H\.264 profile is /),
      'it is 720 x 720, not 1280 x 720',
      'it runs at 12 fps, not 30',
      "its index (the 'moov' box) comes after its frames",
    ]);
  });
});
