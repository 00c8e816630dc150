import type { Recipe } from '../../shared/export-recipe.ts';
import type { VideoChannel } from '../../shared/vocabulary.ts';
import { VIDEO_CHANNEL_WORDS } from '../../shared/words.ts';

// What each channel takes of a video, as the pre-flight checks it (video-preflight.ts), and what a recipe
// that makes videos for it writes (video-make.ts). The figures and where they come from are in
// docs/export.md ("Videos"); none could be checked against the channel's own page here, so each is a third
// party's statement of it, to check before release.

/**
 * The file a recipe makes for the channel: always MP4, H.264 High profile in yuv420p, AAC sound, `moov`
 * before the media data; these are what differs.
 */
export interface VideoMake {
  /**
   * The frames it may have, largest first: the largest the source fills without being enlarged, else the
   * last (the channel's least). None: the source's own frame, made even, at most `maxWidth` wide.
   */
  frames: readonly { width: number; height: number }[];
  fps: number;
  /** A video without sound is given a silent track: the channel refuses or mutes a file without one. */
  soundRequired: boolean;
}

export interface VideoChannelRules {
  /** The channel's name as the warnings say it. */
  channel: string;
  /** Codes of sample entries the channel's video track may have: avc1/avc3 (H.264), hvc1/hev1 (HEVC). */
  videoCodecs: readonly string[];
  /** Codes of a sound track's sample entry; a video without sound passes. */
  audioCodecs?: readonly string[];
  minSeconds?: number;
  maxSeconds?: number;
  /** Why the longest is what it is, said after the limit. */
  maxSecondsNote?: string;
  maxBytes?: number;
  /** The frame's width may not pass this. */
  maxWidth?: number;
  /** The frame's short side at least this. */
  minShortSide?: number;
  /** The shape the channel shows, width:height; a video off by more than 1 % is warned about. */
  aspect?: { width: number; height: number };
  minFrameRate?: number;
  maxFrameRate?: number;
  /** moov before the media data (ffmpeg's `-movflags +faststart`). */
  moovFirst?: boolean;
  make: VideoMake;
}

const MB = 1024 * 1024;
const H264_HEVC = ['avc1', 'avc3', 'hvc1', 'hev1'] as const;

/** Reels (and Stories, which take the same file): Meta's publishing specification as Ayrshare restates it. */
export const INSTAGRAM_REELS: VideoChannelRules = {
  channel: VIDEO_CHANNEL_WORDS['instagram-reels'],
  videoCodecs: H264_HEVC,
  audioCodecs: ['mp4a'],
  minSeconds: 3,
  // Reels take up to 15 minutes; a story shows 60 s and splits the rest: the stricter is warned about.
  maxSeconds: 60,
  maxSecondsNote: 'a story splits a longer video (Reels take up to 15 minutes)',
  maxBytes: 300 * MB,
  maxWidth: 1920,
  aspect: { width: 9, height: 16 },
  minFrameRate: 23,
  maxFrameRate: 60,
  moovFirst: true,
  // 1080 x 1920 at 30 fps with AAC sound is what Meta recommends; a smaller source is enlarged (and said).
  make: { frames: [{ width: 1080, height: 1920 }], fps: 30, soundRequired: true },
};

/** Shopify product media, as quoted from Shopify's help by a third party. */
export const SHOPIFY_VIDEO: VideoChannelRules = {
  channel: VIDEO_CHANNEL_WORDS.shopify,
  // MP4, MOV and WebM are taken; this reader reads MP4 and MOV, whose H.264 and HEVC every browser plays.
  videoCodecs: H264_HEVC,
  maxSeconds: 10 * 60,
  maxBytes: 1024 * MB,
  maxWidth: 3840,
  // MP4 with H.264 and AAC plays in every browser a shop is seen in; the frame stays the source's.
  make: { frames: [], fps: 30, soundRequired: false },
};

/** Amazon's product video, from sellers' service pages quoting Seller Central. */
export const AMAZON_VIDEO: VideoChannelRules = {
  channel: VIDEO_CHANNEL_WORDS.amazon,
  videoCodecs: H264_HEVC,
  audioCodecs: ['mp4a', 'lpcm', 'sowt', 'twos', '.mp3'],
  minSeconds: 6,
  maxSeconds: 45,
  maxSecondsNote: '30 s or less is recommended',
  maxBytes: 500 * MB,
  minShortSide: 720,
  aspect: { width: 16, height: 9 },
  minFrameRate: 23.976,
  maxFrameRate: 30,
  moovFirst: true,
  // 16:9 at 1280 x 720 or more; 1920 x 1080 when the source has the pixels for it.
  make: {
    frames: [
      { width: 1920, height: 1080 },
      { width: 1280, height: 720 },
    ],
    fps: 30,
    soundRequired: false,
  },
};

const BY_CHANNEL: Record<VideoChannel, VideoChannelRules> = {
  'instagram-reels': INSTAGRAM_REELS,
  shopify: SHOPIFY_VIDEO,
  amazon: AMAZON_VIDEO,
};

/** The rules of the channel a recipe makes videos for; none for a recipe that copies them. */
export function videoChannelRules(recipe: Recipe): VideoChannelRules | null {
  return recipe.video ? BY_CHANNEL[recipe.video.channel] : null;
}
