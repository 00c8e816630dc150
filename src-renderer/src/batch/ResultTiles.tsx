import type { JobView } from '../../../src-main/shared/models.ts';
import { tileAspect } from './product-lines.ts';

/** Opens the batch's Review on this result (null: Review's first). */
export type OpenResult = (resultId: number | null) => void;

/**
 * A product's results as tiles of one height, each at its own aspect ratio (a 4:5 shot stays 4:5), each a
 * button that opens it in Review: its shots first, then its videos, tiles of their own.
 */
export function ResultTiles({
  jobs,
  product,
  onOpen,
}: {
  jobs: readonly JobView[];
  product: string;
  onOpen: OpenResult;
}) {
  const shots = jobs.flatMap((job) =>
    job.results.filter((result) => result.kind === 'thumbnail').map((result) => ({ job, result })),
  );
  const videos = jobs.flatMap((job) =>
    job.results.filter((result) => result.kind === 'video').map((result) => ({ job, result })),
  );
  if (shots.length === 0 && videos.length === 0) return null;
  return (
    <div className="product-results">
      {shots.map(({ job, result }, index) => (
        <button
          key={result.url}
          type="button"
          className="result-tile shot"
          disabled={result.resultId === null}
          onClick={() => onOpen(result.resultId)}
          aria-label={`${product}, shot ${index + 1}: open in Review`}
        >
          <img
            src={result.url}
            alt=""
            decoding="async"
            style={{ aspectRatio: tileAspect(job.aspectRatio) }}
          />
        </button>
      ))}
      {videos.map(({ job, result }, index) => (
        <button
          key={result.url}
          type="button"
          className="result-tile video"
          disabled={result.resultId === null}
          onClick={() => onOpen(result.resultId)}
          aria-label={`${product}, video ${index + 1}: open in Review`}
        >
          {/* The video's poster frame from core stands for it (its first frame while there is none): played
              in Review's loupe, where there is room for its controls. */}
          <video
            src={result.url}
            poster={result.posterUrl ?? undefined}
            muted
            preload="metadata"
            tabIndex={-1}
            aria-hidden="true"
            style={{ aspectRatio: tileAspect(job.aspectRatio) }}
          />
          <span className="video-mark" aria-hidden="true">
            ▶
          </span>
        </button>
      ))}
    </div>
  );
}
