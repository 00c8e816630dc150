import { useEffect } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import { batchMoney, countedJobs, moneyWords, outcomeWords } from '../../../src-main/shared/money-words.ts';
import { SERVICE_TROUBLE_BADGE, unsettledCredits } from '../../../src-main/shared/words.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { dateTime } from '../format.ts';
import { useBatches } from '../stores/batches.ts';
import { useNavigation } from '../stores/navigation.ts';

const ROW_HEIGHT = 64;
const BATCHES_SHOWN = 'adbatch:batches-shown';

export function BatchesScreen() {
  const { batches, loaded, error, load } = useBatches();
  const go = useNavigation((state) => state.go);

  useEffect(() => {
    void load();
  }, [load]);

  // For the UI benchmark: when the list first shows, in the page's own clock.
  useEffect(() => {
    if (loaded && batches.length > 0 && performance.getEntriesByName(BATCHES_SHOWN).length === 0) {
      performance.mark(BATCHES_SHOWN);
    }
  }, [loaded, batches.length]);

  return (
    <section className="screen" aria-labelledby="batches-title">
      <header className="screen-header">
        <h1 id="batches-title">Batches</h1>
        <button type="button" className="primary" onClick={() => go({ name: 'new' })}>
          New batch
        </button>
      </header>
      {error && <Notice kind="error">Could not load the batches: {error}</Notice>}
      {!loaded && <p className="muted">Loading batches…</p>}
      {loaded && batches.length === 0 && !error && (
        <EmptyState title="No batches yet">
          <p>
            Drop folders of product photos on a new batch to see what it will cost before anything is spent.
          </p>
          <button type="button" className="primary" onClick={() => go({ name: 'new' })}>
            Start a batch
          </button>
        </EmptyState>
      )}
      {batches.length > 0 && (
        <div className="table">
          <div className="table-head" aria-hidden="true">
            <span>Batch</span>
            <span>Account</span>
            <span>Status</span>
            <span>Progress</span>
            <span>Credits</span>
          </div>
          <VirtualList
            items={batches}
            rowHeight={ROW_HEIGHT}
            label="Batches"
            testId="batches-list"
            className="table-body"
            render={(batch) => (
              <button type="button" className="table-row" onClick={() => go({ name: 'batch', id: batch.id })}>
                <span className="cell-main with-cover">
                  {batch.coverUrl ? (
                    <img className="batch-cover" src={batch.coverUrl} alt="" decoding="async" />
                  ) : (
                    <span className="batch-cover" aria-hidden="true" />
                  )}
                  <strong>{batch.name}</strong>
                  <small>
                    {dateTime(batch.createdAt)} · {counted(batch.products, 'product')}
                  </small>
                </span>
                <span>
                  {batch.accountName}
                  {batch.sandbox && <small className="tag">simulated</small>}
                  {batch.brandName && <small data-testid="batch-brand">for {batch.brandName}</small>}
                  {batch.agentClient && <small data-testid="batch-agent">asked by {batch.agentClient}</small>}
                </span>
                <span>
                  <StatusBadge batch={batch} />
                  {batch.serviceTrouble && (
                    <small className="warn" data-testid="batch-service-trouble">
                      {SERVICE_TROUBLE_BADGE[batch.serviceTrouble.kind]}
                    </small>
                  )}
                  {batch.attention > 0 && (
                    <small className="warn" data-testid="batch-in-doubt">
                      {batch.attention} need a decision
                      {batch.creditsInDoubt > 0 ? `: ${unsettledCredits(batch.creditsInDoubt)}` : ''}
                    </small>
                  )}
                </span>
                <span>
                  <ProgressBar
                    value={batch.done + batch.failed}
                    max={batch.jobs}
                    label={`${batch.name} progress`}
                  />
                  <small>{outcomeWords(batch.states, countedJobs(batch))}</small>
                </span>
                <span>{moneyWords(batchMoney(batch))}</span>
              </button>
            )}
          />
        </div>
      )}
    </section>
  );
}
