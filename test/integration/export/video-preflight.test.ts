import { execFile } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planExport } from '../../../src-main/core/export/plan.ts';
import { builtInRecipe, parseRecipe } from '../../../src-main/core/export/recipes.ts';
import { runExport } from '../../../src-main/core/export/run.ts';
import { readVideoFacts, VideoFileError } from '../../../src-main/core/export/video-mp4.ts';
import { videoPreflight } from '../../../src-main/core/export/video-preflight.ts';
import { renderVideo } from '../../../src-main/sandbox/render/video.ts';
import { resourceFile } from '../../../src-main/sandbox/resources.ts';
import type { Recipe } from '../../../src-main/shared/export-recipe.ts';
import { exportItem } from '../../support/export-item.ts';
import { atFrameRate } from '../../support/low-frame-rate.ts';
import { largeHeader, moovLast, topLevelBoxes } from '../../support/mp4-boxes.ts';
import { PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS } from '../../support/static-server.ts';

// The video pre-flight on real MP4s: the sandbox's renders (ffmpeg, H.264, +faststart) and its bundled
// placeholder, then the same files rearranged (moov last, a 64-bit mdat, a 5 GiB sparse mdat) and broken
// (cut short in the media data, cut before moov, cut inside a header, not an MP4 at all). What our reader
// says is held against ffprobe, which shares nothing with it.

const execFileAsync = promisify(execFile);
const FALLBACK = resourceFile(join('sandbox', 'fallback.mp4'));
const storyReels = builtInRecipe('story-reels')!;

let dir: string;
let portrait: string;
let landscape: string;

async function probe(file: string) {
  const { stdout } = await execFileAsync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-show_entries'],
    ...[
      'stream=codec_tag_string,width,height,nb_frames,avg_frame_rate:format=duration,format_name',
      '-of',
      'json',
      file,
    ],
  ]);
  const parsed = JSON.parse(stdout) as {
    streams: { codec_tag_string: string; width: number; height: number; avg_frame_rate: string }[];
    format: { duration: string };
  };
  const [num, den] = parsed.streams[0]!.avg_frame_rate.split('/').map(Number);
  return { ...parsed.streams[0]!, duration: Number(parsed.format.duration), fps: num! / den! };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-video-preflight-'));
  const image = await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.mug));
  portrait = join(dir, 'portrait.mp4');
  landscape = join(dir, 'landscape.mp4');
  // Silent, and slowed to 12 fps, below what both channels take, for their frame-rate checks.
  const render = { images: [image], seed: 'preflight', music: false };
  const rendered = join(dir, 'rendered.mp4');
  await renderVideo({ ...render, duration: 5, resolution: '720p', aspectRatio: '9:16' }, rendered, 'ffmpeg');
  await atFrameRate(rendered, 12, portrait);
  await renderVideo({ ...render, duration: 5, resolution: '480p', aspectRatio: '16:9' }, rendered, 'ffmpeg');
  await atFrameRate(rendered, 12, landscape);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readVideoFacts on real MP4s', () => {
  it.each([
    ['the sandbox’s 9:16 render', () => portrait],
    ['the sandbox’s 16:9 render', () => landscape],
    ['the bundled placeholder', () => FALLBACK],
  ])('reads %s as ffprobe does', async (_, file) => {
    const facts = await readVideoFacts(file());
    const probed = await probe(file());
    expect(facts.brand).toBe('isom');
    expect(facts.moovFirst).toBe(true);
    expect(facts.video).toMatchObject({
      kind: 'vide',
      codec: probed.codec_tag_string,
      width: probed.width,
      height: probed.height,
    });
    expect(facts.video!.codec).toBe('avc1');
    expect(facts.durationSeconds).toBeCloseTo(probed.duration, 1);
    expect(facts.video!.sampleRate).toBeCloseTo(probed.fps, 1);
    expect(facts.audio).toBeNull();
  });

  it('reads a movie whose moov comes after its frames, as a player still does', async () => {
    const moved = join(dir, 'moov-last.mp4');
    await writeFile(moved, moovLast(await readFile(portrait)));
    expect(topLevelBoxes(await readFile(moved)).map((box) => box.type)).toEqual([
      'ftyp',
      'free',
      'mdat',
      'moov',
    ]);
    const [before, after] = await Promise.all([readVideoFacts(portrait), readVideoFacts(moved)]);
    expect(after).toEqual({ ...before, moovFirst: false });
    // ffmpeg decodes every frame of it: the rearranged file is a real movie, not only one our reader takes.
    const { stdout } = await execFileAsync('ffprobe', [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', moved],
    ]);
    expect(Number(stdout.trim())).toBe(60);
  });

  it('reads a 64-bit mdat, and skips 5 GiB of media data without reading it', async () => {
    const large = join(dir, 'large-mdat.mp4');
    await writeFile(large, moovLast(await readFile(portrait), { largeMdat: true }));
    expect((await readVideoFacts(large)).video).toEqual((await readVideoFacts(portrait)).video);

    // ftyp, an mdat of 5 GiB (a hole in a sparse file past the real frames), then moov.
    const boxes = topLevelBoxes(await readFile(portrait));
    const ftyp = boxes.find((box) => box.type === 'ftyp')!.bytes;
    const mdat = boxes.find((box) => box.type === 'mdat')!.bytes;
    const moov = boxes.find((box) => box.type === 'moov')!.bytes;
    const payload = 5 * 1024 ** 3;
    const sparse = join(dir, 'sparse.mp4');
    const handle = await open(sparse, 'w');
    try {
      const head = Buffer.concat([ftyp, largeHeader('mdat', payload), mdat.subarray(8)]);
      await handle.write(head, 0, head.length, 0);
      await handle.write(moov, 0, moov.length, ftyp.length + 16 + payload);
    } finally {
      await handle.close();
    }
    const started = performance.now();
    const facts = await readVideoFacts(sparse);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(facts).toMatchObject({ moovFirst: false, durationSeconds: 5 });
    expect(facts.video).toMatchObject({ codec: 'avc1', width: 720, height: 1280 });
  });
});

describe('readVideoFacts on broken files', () => {
  const write = async (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return path;
  };

  it('says a file cut short in its frames is cut short, whether moov came first or last', async () => {
    const whole = await readFile(portrait);
    const first = await write('cut-after-moov.mp4', whole.subarray(0, Math.floor(whole.length * 0.8)));
    await expect(readVideoFacts(first)).rejects.toThrow(VideoFileError);
    await expect(readVideoFacts(first)).rejects.toThrow(
      /cut-after-moov\.mp4 is cut short: its 'mdat' box should end at/,
    );
    const last = moovLast(whole);
    const middle = await write('cut-in-frames.mp4', last.subarray(0, Math.floor(last.length / 2)));
    await expect(readVideoFacts(middle)).rejects.toThrow(/is cut short: its 'mdat' box should end at/);
  });

  it('says a file that stops where moov should start has no index', async () => {
    const last = moovLast(await readFile(portrait));
    const boxes = topLevelBoxes(last);
    const withoutMoov = last.subarray(0, last.length - boxes.at(-1)!.bytes.length);
    const path = await write('no-moov.mp4', withoutMoov);
    await expect(readVideoFacts(path)).rejects.toThrow(/no-moov\.mp4 is cut short: it has no 'moov' box/);
  });

  it('says a file cut inside a box header, or inside moov, is cut short', async () => {
    const whole = await readFile(portrait);
    const ftypSize = whole.readUInt32BE(0);
    await expect(
      readVideoFacts(await write('cut-header.mp4', whole.subarray(0, ftypSize + 12))),
    ).rejects.toThrow(/is cut short/);
    const last = moovLast(whole);
    await expect(
      readVideoFacts(await write('cut-moov.mp4', last.subarray(0, last.length - 100))),
    ).rejects.toThrow(/is cut short: its 'moov' box should end at/);
  });

  it('says a file that is not an MP4 is not one, and what it is when it can tell', async () => {
    const png = await write('photo.mp4', await readFile(join(PRODUCT_FIXTURES_DIR, PRODUCT_PHOTOS.mug)));
    await expect(readVideoFacts(png)).rejects.toThrow(
      /^photo\.mp4 is not an MP4 or MOV file: it is a PNG image\.$/,
    );
    const page = await write(
      'download.mp4',
      Buffer.from('<!DOCTYPE html><html><body>Not found</body></html>'),
    );
    await expect(readVideoFacts(page)).rejects.toThrow(
      /download\.mp4 is not an MP4 or MOV file: it is an HTML page/,
    );
    const text = await write('notes.mp4', Buffer.from('hello, this is not a movie'));
    await expect(readVideoFacts(text)).rejects.toThrow(
      "notes.mp4 is not an MP4 or MOV file: it starts with bytes 68656c6c6f2c2074, not an 'ftyp' box.",
    );
    await expect(readVideoFacts(await write('empty.mp4', Buffer.alloc(0)))).rejects.toThrow(
      /empty\.mp4 is empty/,
    );
  });
});

describe('videoPreflight', () => {
  it('passes a 9:16 H.264 render for Story and Reels except what it lacks: frame rate and full size', async () => {
    const { warnings } = await videoPreflight(storyReels, portrait, 1_000_000);
    expect(warnings).toEqual([
      'The video is 720 x 1280; Story and Reels wants at least 1920 px on the long side.',
      'The video runs at 12 fps; Instagram Reels and Stories takes 23 fps or more.',
    ]);
  });

  it('warns a 16:9 video for a 9:16 channel, a moov at the end, a duration and size out of bounds', async () => {
    const moved = join(dir, 'landscape-moov-last.mp4');
    await writeFile(moved, moovLast(await readFile(landscape)));
    const { warnings } = await videoPreflight(storyReels, moved, 400 * 1024 * 1024);
    expect(warnings).toContain(
      'The video is 16:9 (854 x 480); Instagram Reels and Stories shows 9:16: it is copied as it is, so it will be cropped or framed in bars.',
    );
    expect(warnings).toContain(
      "The video's index (its 'moov' box) comes after its frames; Instagram Reels and Stories wants it first (ffmpeg's -movflags +faststart).",
    );
    expect(warnings).toContain('400 MB; Instagram Reels and Stories takes at most 300 MB.');
    const { warnings: short } = await videoPreflight(builtInRecipe('amazon-video')!, FALLBACK, 10_000);
    expect(short).toContain('The video lasts 3 s; Amazon takes at least 6 s.');
  });

  it('holds a video against Amazon’s rules: 16:9, 720 px high at least, 6 to 45 s', async () => {
    const amazon = builtInRecipe('amazon-video')!;
    const { warnings } = await videoPreflight(amazon, landscape, 1_000_000);
    expect(warnings).toEqual([
      'The video lasts 5 s; Amazon takes at least 6 s.',
      'The video is 854 x 480; Amazon wants at least 720 px on the short side.',
      'The video runs at 12 fps; Amazon takes 23.976 fps or more.',
    ]);
  });

  it('gives a recipe without a channel only its own checks, and a broken file its reason', async () => {
    const mine: Recipe = parseRecipe({
      id: 'square-video',
      name: 'Square video',
      format: { type: 'original' },
      size: { kind: 'exact', width: 1080, height: 1080, fit: 'pad' },
      fileTemplate: '{product}.{ext}',
      kinds: ['video'],
      preflight: { maxBytes: 1000 },
    });
    const { warnings } = await videoPreflight(mine, portrait, 5000);
    expect(warnings).toEqual([
      '5 KB; Square video takes at most 1 KB.',
      'The video is 9:16 (720 x 1280); Square video shows 1:1: it is copied as it is, so it will be cropped or framed in bars.',
    ]);
    const broken = join(dir, 'broken.mp4');
    await writeFile(broken, Buffer.from('GIF89a, not a movie'));
    expect(await videoPreflight(mine, broken, 20)).toEqual({
      facts: null,
      warnings: ['broken.mp4 is not an MP4 or MOV file: it is a GIF image.'],
    });
  });
});

describe('an export with videos', () => {
  it('puts each copied video’s warnings and its size, read from the file, in the report', async () => {
    // A recipe that copies videos (Story and Reels makes them anew: video-channels.test.ts).
    const storyCopy = parseRecipe({ ...storyReels, id: 'story-copy', name: 'Story copy', video: undefined });
    const cut = join(dir, 'cut.mp4');
    const whole = await readFile(landscape);
    await writeFile(cut, whole.subarray(0, whole.length - 5000));
    const video = (key: string, file: string) =>
      exportItem({ key, kind: 'video', file, productKey: key, product: key, handle: key });
    const plan = await planExport({
      items: [video('portrait', portrait), video('cut', cut)],
      recipes: [storyCopy],
      selection: { rule: 'picked', minStars: 0, videos: true, sources: false },
      date: '2026-11-23',
    });
    const report = await runExport({ plan, destination: join(dir, 'export') });
    expect(report.status).toBe('done');
    const byKey = Object.fromEntries(report.files.map((file) => [file.planned.item.key, file]));
    expect(byKey.portrait).toMatchObject({ status: 'written', width: 720, height: 1280 });
    expect(byKey.portrait!.warnings).toEqual([
      'The video is 720 x 1280; Story copy wants at least 1920 px on the long side.',
    ]);
    expect(byKey.cut).toMatchObject({ status: 'written', width: 0, height: 0 });
    expect(byKey.cut!.warnings).toEqual([
      expect.stringMatching(
        /^cut\.mp4 is cut short: its 'mdat' box should end at .* It was not copied in full/,
      ),
    ]);
  });
});
