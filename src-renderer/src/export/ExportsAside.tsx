import type { ExportState } from '../../../src-main/shared/vocabulary.ts';
import { exportDoneWords } from '../../../src-main/shared/words.ts';
import { ModalSheet } from '../components/ModalSheet.tsx';
import { ProgressBar } from '../components/ProgressBar.tsx';
import { fileName } from '../format.ts';
import { useExports } from '../stores/exports.ts';
import { ExportRun } from './ExportRun.tsx';

// The exports put aside while they run, in the sidebar under the screens: each with its folder and progress,
// then how it ended, and Show to see it again in a sheet (progress and Cancel, then its report and Reveal).
// Closing an ended export's sheet lets it go from the list.

const ENDINGS: Record<Exclude<ExportState, 'running' | 'done'>, string> = {
  cancelled: 'Cancelled',
  stopped: 'Stopped',
  failed: 'Failed',
  interrupted: 'Interrupted',
};

function AsideItem({ id, destination }: { id: string; destination: string }) {
  const progress = useExports((state) => state.progress[id]);
  const ended = useExports((state) => state.ended[id]);
  const showAside = useExports((state) => state.showAside);
  const folder = fileName(destination) || destination;
  const status =
    ended && ended.state !== 'running'
      ? ended.state === 'done'
        ? exportDoneWords(ended)
        : ENDINGS[ended.state]
      : progress
        ? `${progress.phase === 'zips' ? 'Zip' : 'File'} ${progress.done} of ${progress.total}`
        : 'Starting…';
  return (
    <li className="exports-aside-item">
      <div className="exports-aside-text">
        <span className="exports-aside-folder" title={destination}>
          To {folder}
        </span>
        <span className="muted small" data-testid="export-aside-status">
          {status}
        </span>
      </div>
      {!ended && (
        <ProgressBar value={progress?.done ?? 0} max={progress?.total ?? 0} label={`Export to ${folder}`} />
      )}
      <button type="button" className="link" onClick={() => showAside(id)}>
        Show<span className="visually-hidden"> the export to {folder}</span>
      </button>
    </li>
  );
}

export function ExportsAside() {
  const aside = useExports((state) => state.aside);
  const shown = useExports((state) => state.shownAside);
  const ended = useExports((state) => (shown ? state.ended[shown] : undefined));
  if (aside.length === 0) return null;
  const { showAside, forgetAside } = useExports.getState();
  const close = () => (shown && ended ? forgetAside(shown) : showAside(null));
  return (
    <section className="exports-aside" aria-labelledby="exports-aside-title">
      <h2 id="exports-aside-title" className="exports-aside-title">
        Exports
      </h2>
      <ul>
        {aside.map((one) => (
          <AsideItem key={one.id} id={one.id} destination={one.destination} />
        ))}
      </ul>
      {shown && (
        <ModalSheet className="export-dialog" labelledBy="export-aside-sheet-title" onClose={close}>
          <h2 id="export-aside-sheet-title">Export</h2>
          <ExportRun id={shown} onClose={close} onPutAside={ended ? undefined : () => showAside(null)} />
        </ModalSheet>
      )}
    </section>
  );
}
