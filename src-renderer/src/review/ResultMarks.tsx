import { useState } from 'react';
import type {
  ReviewChange,
  ReviewCounts,
  ReviewFilter,
  ReviewItemView,
} from '../../../src-main/shared/models.ts';
import { REVIEW_LABELS, type ReviewLabel } from '../../../src-main/shared/vocabulary.ts';
import { REVIEW_LABEL_WORDS } from '../../../src-main/shared/words.ts';

// What a result's tile shows besides its name: its picture (a video's poster frame, or a plain "Video" tile
// with its length when there is none: never a broken image), and its colour label as a coloured mark that
// says its colour in words too (to a screen reader and in a tooltip). And the filter by label.

/** `Red label`: the mark's name, said wherever the colour is shown. */
export function labelName(label: ReviewLabel): string {
  return `${REVIEW_LABEL_WORDS[label]} label`;
}

/**
 * Lightroom's way with the keys 6 to 9: a label given to results that all have it already takes it away;
 * else it gives it to all of them.
 */
export function toggledLabel(
  change: ReviewChange,
  items: readonly Pick<ReviewItemView, 'label'>[],
): ReviewChange {
  if (!change.label || items.length === 0) return change;
  return items.every((item) => item.label === change.label) ? { ...change, label: null } : change;
}

export function LabelMark({ label }: { label: ReviewLabel | null }) {
  if (!label) return null;
  const name = labelName(label);
  return <span className={`label-mark label-${label}`} role="img" aria-label={name} title={name} />;
}

/** A video with no picture to show: what it is and how long, in the picture's place. */
function VideoPlaceholder({ item }: { item: ReviewItemView }) {
  return (
    <span className="tile-image tile-video-placeholder" data-testid="video-placeholder">
      <span>Video</span>
      {item.durationSeconds !== null && <span>{item.durationSeconds} s</span>}
    </span>
  );
}

/**
 * A tile's picture: a shot's grid preview (its original while that is being made), a video's poster frame.
 * A video without one, or whose frame fails to load, shows the placeholder: a video's own URL is no image.
 */
export function TileImage({ item }: { item: ReviewItemView }) {
  const [failed, setFailed] = useState(false);
  const src = item.kind === 'video' ? item.gridUrl : (item.gridUrl ?? item.url);
  if (!src || (failed && item.kind === 'video')) return <VideoPlaceholder item={item} />;
  return (
    <img
      className="tile-image"
      src={src}
      alt=""
      decoding="async"
      width={180}
      height={180}
      draggable={false}
      onError={() => setFailed(true)}
    />
  );
}

export function LabelFilter({
  filter,
  counts,
  update,
}: {
  filter: ReviewFilter;
  counts: ReviewCounts;
  update: (change: Partial<ReviewFilter>) => void;
}) {
  const labelled = REVIEW_LABELS.reduce((sum, label) => sum + (counts.byLabel[label] ?? 0), 0);
  return (
    <label className="review-filter">
      Label
      <select
        value={filter.label ?? ''}
        onChange={(event) => update({ label: (event.target.value || undefined) as ReviewFilter['label'] })}
      >
        <option value="">Any ({counts.total})</option>
        {REVIEW_LABELS.map((label) => (
          <option key={label} value={label}>
            {REVIEW_LABEL_WORDS[label]} ({counts.byLabel[label] ?? 0})
          </option>
        ))}
        <option value="none">No label ({counts.total - labelled})</option>
      </select>
    </label>
  );
}
