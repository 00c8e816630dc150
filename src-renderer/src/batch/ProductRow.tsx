import { memo } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { ProductProgressView } from '../../../src-main/shared/models.ts';
import { type BatchMoment, type DecideOnJob, JobNote, JobState } from './JobLines.tsx';
import { productLines } from './product-lines.ts';
import { type OpenResult, ResultTiles } from './ResultTiles.tsx';

/**
 * One product of the batch page in one compact row: its hero, its name and the state of each of its jobs,
 * its results as tiles; below, only when there is one, why a job failed and what may be decided about it,
 * and its earlier attempts, folded under the one that succeeded. Whether they are opened is the page's
 * (`earlierOpen`): the list keeps only the rows in view, and a row scrolled out and back is a new one.
 */
function ProductRowView({
  item,
  onDecide,
  onOpen,
  moment,
  earlierOpen,
  onEarlierToggle,
}: {
  item: ProductProgressView;
  onDecide: DecideOnJob;
  onOpen: OpenResult;
  moment: BatchMoment;
  earlierOpen: boolean;
  onEarlierToggle: (productId: string, open: boolean) => void;
}) {
  const { current, earlier } = productLines(item.jobs);
  return (
    <div className="product-row">
      {item.heroUrl ? (
        <img className="product-hero" src={item.heroUrl} alt={`${item.name}, hero`} decoding="async" />
      ) : (
        <span className="product-hero thumb-placeholder" />
      )}
      <div className="product-head">
        <strong className="product-name" title={item.name}>
          {item.name}
        </strong>
        <span className="product-states">
          {current.map((job) => (
            <JobState key={job.id} job={job} moment={moment} />
          ))}
        </span>
      </div>
      <ResultTiles jobs={current} product={item.name} onOpen={onOpen} />
      {current.map((job) => (
        <JobNote key={job.id} job={job} onDecide={onDecide} />
      ))}
      {earlier.length > 0 && (
        <details
          className="earlier-attempts"
          open={earlierOpen}
          onToggle={(event) => onEarlierToggle(item.id, event.currentTarget.open)}
        >
          <summary>{counted(earlier.length, 'earlier attempt')}</summary>
          <ul>
            {earlier.map((job) => (
              <li key={job.id} className="earlier-attempt">
                <JobState job={job} moment={moment} />
                {job.failureMessage && <small className="job-reason">{job.failureMessage}</small>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** A refresh brings new objects for every product: a row renders again only when its own content changed. */
export const ProductRow = memo(
  ProductRowView,
  (before, after) =>
    before.onDecide === after.onDecide &&
    before.onOpen === after.onOpen &&
    before.earlierOpen === after.earlierOpen &&
    before.onEarlierToggle === after.onEarlierToggle &&
    before.moment.paused === after.moment.paused &&
    before.moment.savingBlocked === after.moment.savingBlocked &&
    JSON.stringify(before.item) === JSON.stringify(after.item),
);
