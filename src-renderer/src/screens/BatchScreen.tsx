import { memo, useCallback, useEffect, useState } from 'react';
import type {
  BatchDetail,
  JobDecision,
  JobView,
  ProductProgressView,
} from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { BatchExportButton } from '../export/ExportButtons.tsx';
import { credits, duration, megabytes } from '../format.ts';
import { useNavigation } from '../stores/navigation.ts';

const STATE_LABELS: Record<string, string> = {
  waiting: 'waiting',
  submitting: 'sending',
  running: 'generating',
  downloading: 'downloading',
  owed: 'paid, not downloaded',
  done: 'done',
  failed: 'failed (refunded)',
  cancelled: 'cancelled',
  outcome_unknown: 'outcome unknown',
  stale: 'no answer',
  abandoned: 'abandoned',
};

/** A batch's detail is fetched again at most this often while progress events arrive. */
const REFRESH_MS = 1000;

function JobLine({
  job,
  onDecide,
  savingBlocked,
}: {
  job: JobView;
  onDecide: Decide;
  /** The batch is paused because its results cannot be written: a downloading job waits for that. */
  savingBlocked: boolean;
}) {
  const attention = job.state === 'outcome_unknown' || job.state === 'stale';
  const label =
    job.state === 'downloading' && savingBlocked
      ? 'paid, waiting to be saved'
      : (STATE_LABELS[job.state] ?? job.state);
  return (
    <div className={`job job-${job.state}`}>
      <span className="job-kind">{job.kind}</span>
      <span className="job-state">
        {label}
        {job.state === 'running' && job.remoteStatus && job.remoteStatus !== STATE_LABELS.running
          ? ` · ${job.remoteStatus}`
          : ''}
      </span>
      <span className="job-results">
        {job.results
          .filter((result) => result.kind === 'thumbnail')
          .map((result) => (
            <img
              key={result.url}
              src={result.url}
              alt={`${job.kind} result`}
              width={40}
              height={40}
              decoding="async"
            />
          ))}
        {job.results.some((result) => result.kind === 'video') && <span className="tag">video</span>}
      </span>
      {(attention || job.state === 'failed' || job.state === 'owed') && job.failureMessage && (
        <small className="job-reason">{job.failureMessage}</small>
      )}
      {attention && (
        <span className="job-actions">
          <small>{credits(job.price)} at stake</small>
          <button type="button" onClick={() => onDecide('recheck', job)}>
            Check again
          </button>
          <button type="button" onClick={() => onDecide('retry', job)}>
            Retry (costs {credits(job.price)} again)
          </button>
          <button type="button" onClick={() => onDecide('abandon', job)}>
            Abandon
          </button>
        </span>
      )}
      {job.state === 'owed' && (
        <span className="job-actions">
          <button type="button" onClick={() => onDecide('redownload', job)}>
            Download again (free)
          </button>
        </span>
      )}
      {job.state === 'failed' && (
        <span className="job-actions">
          <button type="button" onClick={() => onDecide('retry', job)}>
            Retry (costs {credits(job.price)})
          </button>
        </span>
      )}
    </div>
  );
}

type Decide = (action: JobDecision, job: JobView) => void;

function ProductRowView({
  item,
  onDecide,
  savingBlocked,
}: {
  item: ProductProgressView;
  onDecide: Decide;
  savingBlocked: boolean;
}) {
  return (
    <div className="product-row">
      {item.heroUrl ? (
        <img src={item.heroUrl} alt={`${item.name}, hero`} width={56} height={56} decoding="async" />
      ) : (
        <span className="thumb-placeholder" />
      )}
      <div className="product-jobs">
        <strong>{item.name}</strong>
        {item.jobs.map((job) => (
          <JobLine key={job.id} job={job} onDecide={onDecide} savingBlocked={savingBlocked} />
        ))}
      </div>
    </div>
  );
}

/** A refresh brings new objects for every product: a row renders again only when its own content changed. */
const ProductRow = memo(
  ProductRowView,
  (before, after) =>
    before.onDecide === after.onDecide &&
    before.savingBlocked === after.savingBlocked &&
    JSON.stringify(before.item) === JSON.stringify(after.item),
);

export function BatchScreen({ id }: { id: string }) {
  const [detail, setDetail] = useState<BatchDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const go = useNavigation((state) => state.go);

  const load = useCallback(async () => {
    try {
      setDetail(await api.call('batches:get', { id }));
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  }, [id]);

  useEffect(() => {
    void load();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = api.on('batches:progress', (progress) => {
      if (progress.id !== id || timer) return;
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, REFRESH_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [id, load]);

  const act = useCallback(
    async (action: () => Promise<unknown>) => {
      try {
        await action();
        await load();
      } catch (failure) {
        setError(messageOf(failure));
      }
    },
    [load],
  );
  /** The library (or this batch's folder) found again where the user points. */
  const relocate = async () => {
    const [chosen] = await api.call('dialog:open');
    if (chosen) await api.call('batches:relocate', { id, libraryDir: chosen });
  };
  const decide = (action: JobDecision, job: JobView) => {
    if (
      action === 'retry' &&
      !window.confirm(`Send this ${job.kind} again? It costs ${credits(job.price)} again.`)
    )
      return;
    void act(() => api.call(`jobs:${action}`, { id: job.id }));
  };

  if (!detail) {
    return (
      <section className="screen">
        {error ? <Notice kind="error">{error}</Notice> : <p className="muted">Loading the batch…</p>}
      </section>
    );
  }
  const settled = detail.done + detail.failed;
  return (
    <section className="screen batch" aria-labelledby="batch-title">
      <header className="screen-header">
        <button type="button" className="link" onClick={() => go({ name: 'batches' })}>
          ← Batches
        </button>
        <h1 id="batch-title">{detail.name}</h1>
        <StatusBadge status={detail.status} reason={detail.statusReason} />
      </header>
      {error && <Notice kind="error">{error}</Notice>}
      {detail.statusReason === 'insufficient_credits' && (
        <Notice kind="warning">The account ran out of credits. Top up, then resume.</Notice>
      )}
      {detail.statusReason === 'unauthorized' && (
        <Notice kind="error">
          The service refused this account's key. Check it in Settings, then resume.
        </Notice>
      )}
      {detail.statusReason === 'library' && (
        <Notice kind="error">
          {detail.statusMessage} What was paid for stays owed: it downloads, without paying again, as soon as
          the library can be written (Adbatch checks every few seconds), or when you resume.{' '}
          <button type="button" onClick={() => void act(relocate)}>
            Choose where it is now…
          </button>
          {detail.resultsFolderMissing && (
            <button type="button" onClick={() => void act(() => api.call('batches:redownload', { id }))}>
              Download it all again here (free)
            </button>
          )}
        </Notice>
      )}
      {(detail.states.owed ?? 0) > 0 && (
        <Notice kind="warning">
          {detail.states.owed === 1 ? '1 job was' : `${detail.states.owed} jobs were`} paid for, but the
          results could not be downloaded.{' '}
          <button type="button" onClick={() => void act(() => api.call('batches:redownload', { id }))}>
            Download again (free)
          </button>
        </Notice>
      )}
      {detail.statusReason === 'hosting' && (
        <Notice kind="error">
          The photos could not be made reachable by the service, so nothing was sent. {detail.statusMessage}{' '}
          Check the photo storage in{' '}
          <button type="button" className="link" onClick={() => go({ name: 'settings' })}>
            Settings
          </button>
          , then resume.
        </Notice>
      )}
      {detail.upload && (
        <div className="upload" data-testid="batch-upload">
          <ProgressBar value={detail.upload.done} max={detail.upload.total} label="Photo upload" />
          <p>
            Uploading photos: {detail.upload.done} of {detail.upload.total} (
            {megabytes(detail.upload.bytesSent)} sent). Jobs are sent once every photo is in the storage.
          </p>
        </div>
      )}
      <div className="batch-summary">
        <div>
          <ProgressBar value={settled} max={detail.jobs} label="Batch progress" />
          <p data-testid="batch-progress">
            {detail.done} of {detail.jobs} jobs done
            {detail.failed > 0 ? `, ${detail.failed} failed` : ''}
            {detail.attention > 0 ? `, ${detail.attention} need a decision` : ''}
            {detail.etaMs !== null && detail.status === 'running' && detail.etaMs > 0
              ? ` · about ${duration(detail.etaMs)} left`
              : ''}
          </p>
        </div>
        <dl>
          <dt>Account</dt>
          <dd>
            {detail.accountName}
            {detail.sandbox ? ' (simulated)' : ''}
          </dd>
          <dt>Spent</dt>
          <dd>
            {credits(detail.creditsSpent)} of {credits(detail.quotedCredits)} quoted
          </dd>
          {detail.creditsRefunded > 0 && (
            <>
              <dt>Refunded</dt>
              <dd>{credits(detail.creditsRefunded)}</dd>
            </>
          )}
          {detail.videosAfterReview && !detail.videosAfterReview.made && (
            <>
              <dt>Videos</dt>
              <dd data-testid="videos-after-review">
                After review, from the picks ({detail.videosAfterReview.video.duration} s /{' '}
                {detail.videosAfterReview.video.resolution}): Review, then Make videos…
              </dd>
            </>
          )}
        </dl>
        <div className="actions">
          {detail.done > 0 && (
            <button
              type="button"
              className="primary"
              onClick={() => go({ name: 'review', batchId: id, batchName: detail.name })}
            >
              Review
            </button>
          )}
          {detail.done > 0 && <BatchExportButton batchId={id} />}
          {detail.status === 'running' && (
            <button type="button" onClick={() => void act(() => api.call('batches:pause', { id }))}>
              Pause
            </button>
          )}
          {detail.status === 'paused' && (
            <button
              type="button"
              className="primary"
              onClick={() => void act(() => api.call('batches:resume', { id }))}
            >
              Resume
            </button>
          )}
          {(detail.status === 'running' || detail.status === 'paused') && (
            <button
              type="button"
              onClick={() => {
                if (
                  window.confirm(
                    'Cancel what has not been sent yet? Jobs already created are still followed and downloaded.',
                  )
                )
                  void act(() => api.call('batches:cancel', { id }));
              }}
            >
              Cancel
            </button>
          )}
          <button type="button" onClick={() => void act(() => api.call('library:reveal', { batchId: id }))}>
            Show files
          </button>
        </div>
      </div>
      <VirtualList
        items={detail.items}
        rowHeight={detail.video ? 132 : 84}
        label="Products"
        testId="batch-products"
        className="batch-products"
        render={(item) => (
          <ProductRow
            item={item}
            onDecide={decide}
            savingBlocked={detail.status === 'paused' && detail.statusReason === 'library'}
          />
        )}
      />
    </section>
  );
}
