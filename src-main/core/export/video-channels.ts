// What each channel takes of a video, as the pre-flight checks it (video-preflight.ts). The figures and
// where they come from are in docs/export.md ("Videos"); none could be checked against the channel's own
// page here, so each is a third party's statement of it, to check before release.

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
}

const MB = 1024 * 1024;
const H264_HEVC = ['avc1', 'avc3', 'hvc1', 'hev1'] as const;

/** Reels (and Stories, which take the same file): Meta's publishing specification as Ayrshare restates it. */
export const INSTAGRAM_REELS: VideoChannelRules = {
  channel: 'Instagram Reels and Stories',
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
};

/** Shopify product media, as quoted from Shopify's help by a third party. */
export const SHOPIFY_VIDEO: VideoChannelRules = {
  channel: 'Shopify',
  // MP4, MOV and WebM are taken; this reader reads MP4 and MOV, whose H.264 and HEVC every browser plays.
  videoCodecs: H264_HEVC,
  maxSeconds: 10 * 60,
  maxBytes: 1024 * MB,
  maxWidth: 3840,
};

/** Amazon's product video, from sellers' service pages quoting Seller Central. */
export const AMAZON_VIDEO: VideoChannelRules = {
  channel: 'Amazon',
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
};

/**
 * The rules of the channel a built-in recipe exports to. A guess, named: the recipe model has no field
 * for a video's channel yet, so the built-ins are known by id; a designer's own recipe gets the checks
 * every video gets (a readable MP4 or MOV, not cut short, the recipe's size and bytes) without a channel's.
 * Shopify's and Amazon's built-in recipes take no videos today; their rules are here for when they do.
 */
const BY_RECIPE: Record<string, VideoChannelRules> = {
  'story-reels': INSTAGRAM_REELS,
  shopify: SHOPIFY_VIDEO,
  'amazon-main': AMAZON_VIDEO,
  'amazon-additional': AMAZON_VIDEO,
};

export function videoChannelRules(recipeId: string): VideoChannelRules | null {
  return BY_RECIPE[recipeId] ?? null;
}
