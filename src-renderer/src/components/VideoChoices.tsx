import { counted } from '../../../src-main/shared/counted.ts';
import type { CatalogView, VideoSettingsView } from '../../../src-main/shared/models.ts';
import { rateWords } from '../../../src-main/shared/money-words.ts';
import { ChoiceSelect } from './ChoiceSelect.tsx';

// A video's length, resolution, mode and aspect ratio, from the catalog: the same four choices for the
// automatic video of New batch and for videos made from the picks in Review.

export function VideoChoices({
  catalog,
  video,
  madeFrom,
  onChange,
}: {
  catalog: CatalogView;
  video: VideoSettingsView;
  /** What a video is made from, for the length's label: "shot" (New batch) or "pick" (Review). */
  madeFrom: 'shot' | 'pick';
  onChange: (video: VideoSettingsView) => void;
}) {
  return (
    <>
      <ChoiceSelect
        label="Length"
        value={video.duration}
        options={catalog.videoDurations.map((choice) => ({
          value: choice.seconds,
          text: `${choice.seconds} s, from ${counted(choice.sourceImages, madeFrom)}`,
        }))}
        onChange={(duration) => onChange({ ...video, duration })}
      />
      <ChoiceSelect
        label="Resolution"
        value={video.resolution}
        options={catalog.videoResolutions.map((choice) => ({
          value: choice.id,
          text: `${choice.id} (${rateWords('second', choice.creditsPerSecond)})`,
        }))}
        onChange={(resolution) => onChange({ ...video, resolution })}
      />
      <ChoiceSelect
        label="Video mode"
        value={video.mode}
        options={catalog.modes.map((mode) => ({ value: mode.id, text: mode.label }))}
        onChange={(mode) => onChange({ ...video, mode })}
      />
      <ChoiceSelect
        label="Video aspect ratio"
        value={video.aspectRatio}
        options={[
          { value: null, text: 'As its photos' },
          ...catalog.videoAspectRatios.map((ratio) => ({ value: ratio, text: ratio })),
        ]}
        onChange={(aspectRatio) => onChange({ ...video, aspectRatio })}
      />
    </>
  );
}
