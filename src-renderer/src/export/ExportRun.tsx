import { useEffect, useState } from 'react';
import { noun } from '../../../src-main/shared/counted.ts';
import type { ExportDetail } from '../../../src-main/shared/models.ts';
import { revealInFolderLabel } from '../../../src-main/shared/reveal-label.ts';
import { exportDoneWords } from '../../../src-main/shared/words.ts';
import { api, messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { duration } from '../format.ts';
import { useExports } from '../stores/exports.ts';

// An export running and how it ended: its progress with the time left and Cancel, from core's events; then
// what it wrote, what was already there, what failed, the warnings per file, and Reveal in Finder / Show in
// Explorer / Show in Folder.

/** Files with warnings listed by name (the rest counted). */
const WARNINGS_LISTED = 50;

/** A count with its noun, the count grouped by thousands (`1,204 files`). */
function plural(count: number, singular: string): string {
  return `${count.toLocaleString('en')} ${noun(count, singular)}`;
}

export function ExportRun({
  id,
  onClose,
  onPutAside,
}: {
  id: string;
  onClose?: () => void;
  /** Closes the sheet while the export goes on (its progress then in the sidebar). */
  onPutAside?: () => void;
}) {
  const progress = useExports((state) => state.progress[id]);
  const ended = useExports((state) => state.ended[id]);
  const platform = useExports((state) => state.platform);
  const [detail, setDetail] = useState<ExportDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);

  // Once at first (it may have ended before this was shown), and again when it ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ended` is when to ask again, not what is asked.
  useEffect(() => {
    let current = true;
    api.call('export:get', { id }).then(
      (answer) => {
        if (current) setDetail(answer);
      },
      (failure: unknown) => {
        if (current) setError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [id, ended]);

  const cancel = async () => {
    setCancelling(true);
    try {
      await api.call('export:cancel', { id });
      setDetail(await api.call('export:get', { id }));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  const reveal = () =>
    api.call('export:reveal', { id }).catch((failure: unknown) => setError(messageOf(failure)));

  const running = detail === null || detail.state === 'running';
  /** Files listed with what was said of them: failures (their error) and files written with warnings. */
  const warned = detail?.files.filter((file) => file.warnings.length > 0 || file.error) ?? [];
  // Counted apart from the failed ones, which the headline counts already.
  const writtenWithWarnings = warned.filter((file) => !file.error).length;
  return (
    <div className="export-run" data-testid="export-run">
      {running ? (
        <>
          <ProgressBar
            value={progress?.done ?? 0}
            max={progress?.total ?? detail?.total ?? 0}
            label="Export progress"
          />
          <p role="status" data-testid="export-progress">
            {progress
              ? `${progress.phase === 'zips' ? 'Zip' : 'File'} ${progress.done} of ${progress.total}${
                  progress.etaMs !== null && progress.done < progress.total
                    ? ` · about ${duration(progress.etaMs)} left`
                    : ''
                }`
              : 'Starting…'}
          </p>
          {progress?.making ? (
            // A video being made for its channel takes a while: how far it is.
            <p className="muted small export-current">
              {`Making ${progress.making.path}: ${Math.round(progress.making.fraction * 100)} %`}
            </p>
          ) : (
            progress?.path && <p className="muted small export-current">{progress.path}</p>
          )}
          <div className="actions">
            <button type="button" disabled={cancelling} onClick={() => void cancel()}>
              {cancelling ? 'Cancelling…' : 'Cancel export'}
            </button>
            {onPutAside && (
              <button type="button" onClick={onPutAside}>
                Keep working
              </button>
            )}
          </div>
          {onPutAside && (
            <p className="muted small">
              Keep working closes this while the export goes on; its progress stays in the sidebar.
            </p>
          )}
        </>
      ) : (
        <>
          <p role="status" data-testid="export-result">
            <strong>
              {detail.state === 'done'
                ? `${exportDoneWords(detail)}.`
                : detail.state === 'cancelled'
                  ? 'Cancelled: the files it finished stay, the one it was writing was removed.'
                  : detail.state === 'interrupted'
                    ? 'Interrupted.'
                    : 'Stopped.'}
            </strong>{' '}
            {plural(detail.written, 'file')} written, {plural(detail.identical, 'file')} already there
            (skipped)
            {detail.failed > 0 ? `, ${plural(detail.failed, 'file')} failed` : ''}
            {writtenWithWarnings > 0 ? `, ${plural(writtenWithWarnings, 'file')} with warnings` : ''}.
          </p>
          {detail.message && detail.state !== 'cancelled' && <Notice kind="error">{detail.message}</Notice>}
          {detail.notes.map((note) => (
            <Notice key={note} kind="info">
              {note}
            </Notice>
          ))}
          {(detail.manifests.length > 0 || detail.zips.length > 0) && (
            <p className="muted small">
              In {detail.destination}: {[...detail.manifests, ...detail.zips].join(', ')}
            </p>
          )}
          {warned.length > 0 && (
            <details className="export-warnings" open={warned.length <= 5}>
              <summary>{detail.failed > 0 ? 'Failures and warnings per file' : 'Warnings per file'}</summary>
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must take the focus to scroll by keys. */}
              <ul tabIndex={0} aria-label="Files with warnings">
                {warned.slice(0, WARNINGS_LISTED).map((file) => (
                  <li key={file.path}>
                    {/* A file held back says its reasons in its error: its warnings again would say them twice. */}
                    <code>{file.path}</code>: {file.error ?? file.warnings.join(' ')}
                  </li>
                ))}
              </ul>
              {warned.length > WARNINGS_LISTED && (
                <p className="muted small">and {plural(warned.length - WARNINGS_LISTED, 'more file')}</p>
              )}
            </details>
          )}
          <div className="actions">
            {onClose && (
              <button type="button" onClick={onClose}>
                Close
              </button>
            )}
            <button type="button" className="primary" onClick={() => void reveal()}>
              {revealInFolderLabel(platform)}
            </button>
          </div>
        </>
      )}
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}
