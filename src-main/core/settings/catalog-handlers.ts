import type { catalogChannels } from '../../shared/contract/settings.ts';
import type { CatalogView } from '../../shared/models.ts';
import {
  MODES,
  QUALITIES,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../shared/vocabulary.ts';
import { MODE_WORDS, QUALITY_WORDS, STYLE_WORDS } from '../../shared/words.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import {
  CLAMPED_SHOTS,
  CREDITS_PER_IMAGE,
  NEW_BATCH_DEFAULTS,
  SIX_SHOT_STYLES,
  STYLE_SWATCHES,
  VIDEO_CREDITS_PER_SECOND,
  VIDEO_MAX_IMAGES,
} from '../catalog.ts';

// The one vocabulary, handed to the front ends: the renderer lists these choices and lists nothing of its own.

function catalogView(): CatalogView {
  return {
    styles: SHOOT_STYLES.map((id) => ({
      id,
      label: STYLE_WORDS[id],
      swatch: STYLE_SWATCHES[id],
      sixShots: SIX_SHOT_STYLES.includes(id),
    })),
    clampedShots: CLAMPED_SHOTS,
    qualities: QUALITIES.map((id) => ({
      id,
      label: QUALITY_WORDS[id],
      creditsPerImage: CREDITS_PER_IMAGE[id],
    })),
    shotCounts: [...SHOT_COUNTS],
    shootAspectRatios: [...SHOOT_ASPECT_RATIOS],
    modes: MODES.map((id) => ({ id, label: MODE_WORDS[id] })),
    videoDurations: VIDEO_DURATIONS.map((seconds) => ({ seconds, sourceImages: VIDEO_MAX_IMAGES[seconds] })),
    videoResolutions: VIDEO_RESOLUTIONS.map((id) => ({ id, creditsPerSecond: VIDEO_CREDITS_PER_SECOND[id] })),
    videoAspectRatios: [...VIDEO_ASPECT_RATIOS],
    defaults: {
      // No model, no background colour, and a video shaped like its images until the user says otherwise.
      shoot: { ...NEW_BATCH_DEFAULTS.shoot, modelUrl: null, backgroundColor: null },
      video: { ...NEW_BATCH_DEFAULTS.video, aspectRatio: null },
    },
  };
}

export const catalogHandlers: HandlersOf<typeof catalogChannels> = {
  'catalog:get': async () => catalogView(),
};
