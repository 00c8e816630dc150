import { megabytes } from '../../shared/byte-words.ts';
import type { Recipe } from '../../shared/export-recipe.ts';
import { type VideoChannelRules, videoChannelRules } from './video-channels.ts';
import { readVideoFacts, type VideoFacts, VideoFileError } from './video-mp4.ts';

// A video's pre-flight: it is copied as it is, so what the channel will see is what the file holds. Its
// container, codecs, size, duration and frame rate are read from its boxes (video-mp4.ts) and held
// against the recipe's size and checks and its channel's rules (video-channels.ts). As for images, a
// warning never stops the file: it goes with it to the dialog, the CLI and the report.

const CODEC_NAMES: Record<string, string> = {
  avc1: 'H.264',
  avc3: 'H.264',
  hvc1: 'HEVC',
  hev1: 'HEVC',
  av01: 'AV1',
  vp08: 'VP8',
  vp09: 'VP9',
  mp4v: 'MPEG-4 Part 2',
  apcn: 'ProRes',
  apch: 'ProRes',
  mp4a: 'AAC',
  '.mp3': 'MP3',
  'ac-3': 'AC-3',
  'ec-3': 'E-AC-3',
  Opus: 'Opus',
  lpcm: 'PCM',
  sowt: 'PCM',
  twos: 'PCM',
};

function codecName(code: string): string {
  const known = CODEC_NAMES[code];
  return known ? `${known} (${code.trim()})` : `'${code}'`;
}

function codecList(codes: readonly string[]): string {
  return [...new Set(codes.map((code) => CODEC_NAMES[code] ?? code))].join(' or ');
}

function seconds(value: number): string {
  return `${Number(value.toFixed(1))} s`;
}

/** Shapes said by name; any other as its width over its height. */
const COMMON_RATIOS = [
  [1, 1],
  [4, 5],
  [5, 4],
  [9, 16],
  [16, 9],
  [3, 4],
  [4, 3],
  [2, 3],
  [3, 2],
  [21, 9],
] as const;

function ratioOf(width: number, height: number): string {
  const common = COMMON_RATIOS.find(([w, h]) => !offRatio(width, height, { width: w, height: h }));
  return common ? `${common[0]}:${common[1]}` : `${(width / height).toFixed(2)}:1`;
}

/** Off by more than 1 %: an encoder's rounding to even pixels (1080 x 1920 vs 1078 x 1920) passes. */
function offRatio(width: number, height: number, aspect: { width: number; height: number }): boolean {
  return Math.abs(Math.log(width / height / (aspect.width / aspect.height))) > 0.01;
}

function channelWarnings(
  facts: VideoFacts,
  bytes: number,
  rules: VideoChannelRules,
  recipe: Recipe,
): string[] {
  const warnings: string[] = [];
  const { channel } = rules;
  const video = facts.video!;
  if (!rules.videoCodecs.includes(video.codec)) {
    warnings.push(
      `The video is ${codecName(video.codec)}; ${channel} takes ${codecList(rules.videoCodecs)}.`,
    );
  }
  if (facts.audio && rules.audioCodecs && !rules.audioCodecs.includes(facts.audio.codec)) {
    warnings.push(
      `The sound is ${codecName(facts.audio.codec)}; ${channel} takes ${codecList(rules.audioCodecs)}.`,
    );
  }
  const duration = facts.durationSeconds;
  if (rules.minSeconds !== undefined && duration < rules.minSeconds) {
    warnings.push(
      `The video lasts ${seconds(duration)}; ${channel} takes at least ${seconds(rules.minSeconds)}.`,
    );
  }
  if (rules.maxSeconds !== undefined && duration > rules.maxSeconds) {
    const note = rules.maxSecondsNote ? ` (${rules.maxSecondsNote})` : '';
    warnings.push(
      `The video lasts ${seconds(duration)}; ${channel} takes at most ${seconds(rules.maxSeconds)}${note}.`,
    );
  }
  if (rules.maxBytes !== undefined && recipe.preflight.maxBytes === undefined && bytes > rules.maxBytes) {
    warnings.push(`${megabytes(bytes)}; ${channel} takes at most ${megabytes(rules.maxBytes)}.`);
  }
  if (rules.maxWidth !== undefined && video.width > rules.maxWidth) {
    warnings.push(`The video is ${video.width} px wide; ${channel} takes at most ${rules.maxWidth} px.`);
  }
  const shortSide = Math.min(video.width, video.height);
  if (rules.minShortSide !== undefined && shortSide < rules.minShortSide) {
    warnings.push(
      `The video is ${video.width} x ${video.height}; ${channel} wants at least ${rules.minShortSide} px on the short side.`,
    );
  }
  const rate = video.sampleRate;
  if (rate !== null && rules.minFrameRate !== undefined && rate < rules.minFrameRate - 0.01) {
    warnings.push(
      `The video runs at ${Number(rate.toFixed(2))} fps; ${channel} takes ${rules.minFrameRate} fps or more.`,
    );
  }
  if (rate !== null && rules.maxFrameRate !== undefined && rate > rules.maxFrameRate + 0.01) {
    warnings.push(
      `The video runs at ${Number(rate.toFixed(2))} fps; ${channel} takes at most ${rules.maxFrameRate} fps.`,
    );
  }
  if (rules.moovFirst && !facts.moovFirst) {
    warnings.push(
      `The video's index (its 'moov' box) comes after its frames; ${channel} wants it first (ffmpeg's -movflags +faststart).`,
    );
  }
  return warnings;
}

/** The shape a video should have for this recipe: its channel's, or the recipe's exact frame. */
function wantedAspect(
  recipe: Recipe,
  rules: VideoChannelRules | null,
): { width: number; height: number } | null {
  if (rules?.aspect) return rules.aspect;
  if (recipe.size.kind === 'exact') return { width: recipe.size.width, height: recipe.size.height };
  return null;
}

export interface VideoPreflight {
  /** null when the file could not be read as an MP4 or MOV (the reason is the first warning). */
  facts: VideoFacts | null;
  warnings: string[];
}

/** The pre-flight of a video a recipe copies: `bytes` is the file's size. */
export async function videoPreflight(recipe: Recipe, file: string, bytes: number): Promise<VideoPreflight> {
  let facts: VideoFacts;
  try {
    facts = await readVideoFacts(file);
  } catch (error) {
    if (error instanceof VideoFileError) return { facts: null, warnings: [error.message] };
    throw error;
  }
  const warnings: string[] = [];
  const { maxBytes } = recipe.preflight;
  const minLongEdge = recipe.preflight.minLongEdge ?? recipe.preflight.recommendedLongEdge;
  if (maxBytes !== undefined && bytes > maxBytes) {
    warnings.push(`${megabytes(bytes)}; ${recipe.name} takes at most ${megabytes(maxBytes)}.`);
  }
  const video = facts.video;
  if (!video) {
    warnings.push(
      `The file has no video track, only ${facts.tracks.map((track) => `'${track.kind}'`).join(', ') || 'nothing'}.`,
    );
    return { facts, warnings };
  }
  const longEdge = Math.max(video.width, video.height);
  if (minLongEdge !== undefined && longEdge < minLongEdge) {
    warnings.push(
      `The video is ${video.width} x ${video.height}; ${recipe.name} wants at least ${minLongEdge} px on the long side.`,
    );
  }
  const rules = videoChannelRules(recipe);
  const aspect = wantedAspect(recipe, rules);
  if (aspect && video.width > 0 && video.height > 0 && offRatio(video.width, video.height, aspect)) {
    warnings.push(
      `The video is ${ratioOf(video.width, video.height)} (${video.width} x ${video.height}); ${rules?.channel ?? recipe.name} shows ${ratioOf(aspect.width, aspect.height)}: it is copied as it is, so it will be cropped or framed in bars.`,
    );
  }
  if (rules) warnings.push(...channelWarnings(facts, bytes, rules, recipe));
  return { facts, warnings };
}
