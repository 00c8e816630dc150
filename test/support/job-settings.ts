import type { ShootSettings, VideoSettings } from '../../src-main/core/queue/types.ts';

// The quickest and cheapest jobs the service offers, for tests and benches that need a job of each kind
// and do not care which: one standard classic shot of the product alone, and 5 s of it at 480p.

/** One standard shot, classic, product only: 1 credit. */
export const QUICK_SHOOT: ShootSettings = {
  style: 'classic',
  shots: 1,
  quality: 'standard',
  aspectRatio: '1:1',
  mode: 'product_only',
  modelUrl: null,
  backgroundColor: null,
};

/** 5 s at 480p, product only: 9 credits. */
export const QUICK_VIDEO: VideoSettings = {
  duration: 5,
  resolution: '480p',
  mode: 'product_only',
  aspectRatio: null,
};
