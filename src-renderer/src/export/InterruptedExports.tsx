import { useEffect, useState } from 'react';
import { messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { useExports } from '../stores/exports.ts';
import { ExportRun } from './ExportRun.tsx';

// An export a quit or a kill interrupted, offered again when the app starts: Resume runs it from its snapshot
// under the same names (what it finished is found and not written twice), Discard gives it up (what it
// finished stays). Core never resumes one by itself: its folder may be on a disk that is not there now.

export function InterruptedExports() {
  const offered = useExports((state) => state.offered);
  const [error, setError] = useState<string | null>(null);
  const [resumed, setResumed] = useState<string[]>([]);
  useEffect(() => {
    const store = useExports.getState();
    // Nothing to offer when the list cannot be read: the screen below says, once, why main cannot be reached.
    Promise.all([store.load(), store.loadOffered()]).catch(() => {});
  }, []);
  const act = async (work: () => Promise<void>) => {
    try {
      await work();
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  if (offered.length === 0) return error ? <Notice kind="error">{error}</Notice> : null;
  return (
    <section className="export-offers" aria-label="Interrupted exports">
      {offered.map((view) => (
        <div key={view.id} className="notice notice-warning export-offer" role="status">
          {resumed.includes(view.id) ? (
            <>
              <p>
                Export to <strong>{view.destination}</strong> ({view.recipes.join(', ')})
              </p>
              <ExportRun id={view.id} onClose={() => useExports.getState().dismiss(view.id)} />
            </>
          ) : (
            <>
              <p>
                An export to <strong>{view.destination}</strong> ({view.recipes.join(', ')}) was interrupted
                {view.progress?.phase === 'files'
                  ? ` after ${view.progress.done} of ${view.progress.total} files`
                  : view.progress
                    ? ' while it made its zips'
                    : ''}
                . Resume it to finish it under the same names; what it finished is not written again.
              </p>
              <div className="actions">
                <button type="button" onClick={() => void act(() => useExports.getState().discard(view.id))}>
                  Discard
                </button>
                <button
                  type="button"
                  className="primary"
                  onClick={() =>
                    void act(async () => {
                      await useExports.getState().resume(view.id);
                      setResumed([...resumed, view.id]);
                    })
                  }
                >
                  Resume
                </button>
              </div>
            </>
          )}
        </div>
      ))}
      {error && <Notice kind="error">{error}</Notice>}
    </section>
  );
}
