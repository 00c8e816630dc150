import { useCallback, useEffect, useState } from 'react';
import type { BatchDetail, JobView, ServiceTrouble } from '../../../src-main/shared/models.ts';
import type { BatchDecision, JobDecision } from '../../../src-main/shared/vocabulary.ts';
import {
  BATCH_DECISION_WORDS,
  capitalized,
  credits,
  needsYouWords,
  retryWarning,
  SERVICE_TROUBLE_BADGE,
  serviceTroubleWords,
  shootWords,
  timeLeftWords,
  videoWords,
} from '../../../src-main/shared/words.ts';
import { api, messageOf } from '../api/index.ts';
import { ProductRow } from '../batch/ProductRow.tsx';
import type { OpenResult } from '../batch/ResultTiles.tsx';
import { Notice } from '../components/Notice.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { useFolderChoice } from '../components/useFolderChoice.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { BatchExportButton } from '../export/ExportButtons.tsx';
import { megabytes } from '../format.ts';
import { ProductSheetButton } from '../products/ProductSheet.tsx';
import { useNavigation } from '../stores/navigation.ts';
import { useNotices } from '../stores/notices.ts';
import { chargedWords, pauseWords, progressWords } from './batch/batch-words.ts';

/** A batch's detail is fetched again at most this often while progress events arrive. */
const REFRESH_MS = 1000;
/**
 * How often the time left and the service's silence are said again between answers: each counts from the
 * core's moments with this clock.
 */
const TICK_MS = 1000;

/** This clock, read again every second: what counts down (a time left) or up (since when) between answers. */
function useTickingNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * How long the batch has left, counted down between answers. While its service does not answer, that in a few
 * words: the sentence with since when and why is the notice above (it once filled the narrow progress column,
 * five lines at 1280 x 800).
 */
function TimeLeft({ batch }: { batch: Pick<BatchDetail, 'eta' | 'serviceTrouble'> }) {
  const now = useTickingNow();
  const words = batch.serviceTrouble
    ? SERVICE_TROUBLE_BADGE[batch.serviceTrouble.kind]
    : timeLeftWords(batch, now);
  return words && <span data-testid="batch-eta"> · {words}</span>;
}

/** The service's trouble in its whole sentence, as the CLI and agents say it, counted up every second. */
function ServiceTroubleNotice({ trouble }: { trouble: ServiceTrouble }) {
  const now = useTickingNow();
  return (
    <Notice kind="warning">
      <span data-testid="service-trouble">{capitalized(serviceTroubleWords(trouble, now))}.</span>
    </Notice>
  );
}

/** A product's row before it is measured: one line of tiles (the rows are as tall as their content). */
const PRODUCT_ROW_GUESS = 66;

/** What the engine said about the batch while it ran, newest first, until dismissed. */
function RunNotes({ batchId }: { batchId: string }) {
  const notes = useNotices((state) => state.byBatch[batchId]);
  const dismiss = useNotices((state) => state.dismiss);
  if (!notes || notes.length === 0) return null;
  return (
    <section className="run-notes notice notice-info" aria-label="Notes from the run" data-testid="run-notes">
      <ul>
        {notes.map((note) => (
          <li key={`${note.at}-${note.message}`}>
            <time className="muted small">
              {new Date(note.at).toLocaleTimeString(undefined, { timeStyle: 'short' })}
            </time>{' '}
            {note.message}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => dismiss(batchId)}>
        Dismiss
      </button>
    </section>
  );
}

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
  const relocation = useFolderChoice({
    chooseLabel: 'The library is here',
    osDialog: async () => (await api.call('dialog:open'))[0] ?? null,
    onChoose: (libraryDir) => void act(() => api.call('batches:relocate', { id, libraryDir })),
  });
  const batchName = detail?.name ?? '';
  const open = useCallback<OpenResult>(
    (resultId) =>
      go({ name: 'review', batchId: id, batchName, ...(resultId !== null ? { focus: resultId } : {}) }),
    [go, id, batchName],
  );
  const [shown, setShown] = useState<{ folder: string; failure: string | null } | null>(null);
  /** The products whose earlier attempts are opened: kept here, as rows scrolled out of view are dropped. */
  const [earlierOpen, setEarlierOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggleEarlier = useCallback((productId: string, open: boolean) => {
    setEarlierOpen((before) => {
      if (before.has(productId) === open) return before;
      const next = new Set(before);
      if (open) next.add(productId);
      else next.delete(productId);
      return next;
    });
  }, []);
  const showFiles = () => act(async () => setShown(await api.call('library:reveal', { batchId: id })));
  const decide = (action: JobDecision, job: JobView) => {
    if (action === 'retry' && !window.confirm(`${retryWarning(job)} Send it again?`)) return;
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
  const paused = detail.status === 'paused';
  const needsYou = needsYouWords(detail);
  /** Whether core allows this decision on the batch now: only those are offered. */
  const allows = (decision: BatchDecision) => detail.decisions.includes(decision);
  return (
    <section className="screen batch" aria-labelledby="batch-title">
      <header className="screen-header">
        <button type="button" className="link" onClick={() => go({ name: 'batches' })}>
          ← Batches
        </button>
        <h1 id="batch-title">{detail.name}</h1>
        <StatusBadge batch={detail} />
      </header>
      {error && <Notice kind="error">{error}</Notice>}
      {detail.status === 'running' && detail.serviceTrouble && (
        <ServiceTroubleNotice trouble={detail.serviceTrouble} />
      )}
      <RunNotes batchId={id} />
      {detail.statusReason === 'insufficient_credits' && (
        <Notice kind="warning">The account ran out of credits. Top up, then resume.</Notice>
      )}
      {detail.statusReason === 'budget' && (
        <Notice kind="warning">
          {detail.statusMessage ?? 'The batch reached a cap on its spending.'} Nothing past it was sent. Raise
          the cap{detail.brandName ? ` of ${detail.brandName} in ` : ' in '}
          <button type="button" className="link" onClick={() => go({ name: 'settings' })}>
            Settings
          </button>
          , then resume; or leave the rest unshot.
        </Notice>
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
          <button type="button" onClick={() => void act(relocation.choose)}>
            Choose where it is now…
          </button>
          {detail.resultsFolderMissing && allows('redownload') && (
            <button type="button" onClick={() => void act(() => api.call('batches:redownload', { id }))}>
              Download it all again here (free)
            </button>
          )}
        </Notice>
      )}
      {relocation.sheet}
      {needsYou && (
        <Notice kind="warning">
          <span data-testid="needs-you">
            {detail.status === 'needs_you' ? 'This batch needs you. ' : ''}
            {needsYou}
          </span>{' '}
          {allows('recheck') && (
            <button
              type="button"
              className="primary"
              onClick={() => void act(() => api.call('batches:recheck', { id }))}
            >
              {BATCH_DECISION_WORDS.recheck}
            </button>
          )}
        </Notice>
      )}
      {(detail.states.owed ?? 0) > 0 && (
        <Notice kind="warning">
          {detail.states.owed === 1 ? '1 shoot or video was' : `${detail.states.owed} shoots or videos were`}{' '}
          paid for, but the results could not be downloaded.{' '}
          {allows('redownload') && (
            <button type="button" onClick={() => void act(() => api.call('batches:redownload', { id }))}>
              {BATCH_DECISION_WORDS.redownload}
            </button>
          )}
        </Notice>
      )}
      {paused && detail.statusReason === 'restored' && (
        <Notice kind="warning">
          {detail.statusMessage} Nothing of it is sent until you resume; what was being made is still followed
          and downloaded, free.
        </Notice>
      )}
      {detail.statusReason === 'input_unreachable' && <Notice kind="error">{detail.statusMessage}</Notice>}
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
            {megabytes(detail.upload.bytesSent)} sent). The shoots are sent once every photo is in the
            storage.
          </p>
        </div>
      )}
      <div className="batch-summary">
        <div>
          <ProgressBar value={settled} max={detail.jobs} label="Batch progress" />
          <p data-testid="batch-progress">
            {progressWords(detail)}
            {detail.attention > 0 ? `, ${detail.attention} waiting for your decision` : ''}
            {detail.status === 'running' && <TimeLeft batch={detail} />}
          </p>
        </div>
        <dl>
          <dt>Account</dt>
          <dd>
            {detail.accountName}
            {detail.sandbox ? ' (simulated)' : ''}
          </dd>
          {detail.agentClient && (
            <>
              <dt>Asked by</dt>
              <dd data-testid="batch-agent">{detail.agentClient} (an agent)</dd>
            </>
          )}
          {detail.brandName && (
            <>
              <dt>Client brand</dt>
              <dd data-testid="batch-brand">{detail.brandName}</dd>
            </>
          )}
          {detail.creditCap !== null && (
            <>
              <dt>Cap</dt>
              <dd>{credits(detail.creditCap)} for this batch</dd>
            </>
          )}
          <dt>Shoot</dt>
          <dd data-testid="batch-shoot-settings">{shootWords(detail.shoot)}</dd>
          {detail.video && !detail.videosAfterReview && (
            <>
              <dt>Video</dt>
              <dd>{videoWords(detail.video)}</dd>
            </>
          )}
          <dt>Credits</dt>
          <dd data-testid="batch-charged">{chargedWords(detail)}</dd>
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
          <ProductSheetButton batchId={id} />
          {detail.done > 0 && <BatchExportButton batchId={id} />}
          {allows('pause') && (
            <button type="button" onClick={() => void act(() => api.call('batches:pause', { id }))}>
              {BATCH_DECISION_WORDS.pause}
            </button>
          )}
          {allows('resume') && (
            <button
              type="button"
              className="primary"
              onClick={() => {
                // Resuming a restored backup's batch may pay twice: said again, and confirmed, as a retry is.
                if (detail.statusReason === 'restored' && !window.confirm(`${detail.statusMessage} Resume?`))
                  return;
                void act(() => api.call('batches:resume', { id }));
              }}
            >
              {BATCH_DECISION_WORDS.resume}
            </button>
          )}
          {allows('cancel') && (
            <button
              type="button"
              onClick={() => {
                if (
                  window.confirm(
                    'Cancel what has not been sent yet? Shoots and videos already sent are still followed and downloaded.',
                  )
                )
                  void act(() => api.call('batches:cancel', { id }));
              }}
            >
              {BATCH_DECISION_WORDS.cancel}
            </button>
          )}
          <button type="button" onClick={() => void showFiles()}>
            Show files
          </button>
        </div>
      </div>
      {allows('pause') && (
        <p className="muted small" data-testid="pause-words">
          {pauseWords(detail)}
        </p>
      )}
      {shown && (
        <p className="muted small" role="status" data-testid="show-files">
          {shown.failure
            ? `The folder could not be opened (${shown.failure}). The files are in ${shown.folder}`
            : `Opened in your file manager: ${shown.folder}`}
        </p>
      )}
      <VirtualList
        items={detail.items}
        rowHeight={PRODUCT_ROW_GUESS}
        measured
        label="Products"
        testId="batch-products"
        className="batch-products"
        render={(item) => (
          <ProductRow
            item={item}
            onDecide={decide}
            onOpen={open}
            moment={{ paused, savingBlocked: paused && detail.statusReason === 'library' }}
            earlierOpen={earlierOpen.has(item.id)}
            onEarlierToggle={toggleEarlier}
          />
        )}
      />
    </section>
  );
}
