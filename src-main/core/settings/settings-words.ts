import { MODE_LABELS, QUALITY_LABELS, STYLE_LABELS } from '../catalog.ts';
import type { ShootSettings, VideoSettings } from '../queue/types.ts';

// A shoot's or a video's settings in the catalog's words, for people who read them without the app: a
// client's statement, an agent's request. "4 shots · Classic · Standard · 1:1 · Product only".

export function shootInWords(
  shoot: Pick<ShootSettings, 'shots' | 'style' | 'quality' | 'aspectRatio' | 'mode'>,
) {
  return [
    `${shoot.shots} ${shoot.shots === 1 ? 'shot' : 'shots'}`,
    STYLE_LABELS[shoot.style] ?? shoot.style,
    QUALITY_LABELS[shoot.quality] ?? shoot.quality,
    shoot.aspectRatio,
    MODE_LABELS[shoot.mode] ?? shoot.mode,
  ].join(' · ');
}

export function videoInWords(video: Pick<VideoSettings, 'duration' | 'resolution' | 'mode'>) {
  return [`${video.duration} s`, video.resolution, MODE_LABELS[video.mode] ?? video.mode].join(' · ');
}
