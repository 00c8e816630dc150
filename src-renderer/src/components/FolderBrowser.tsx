import { useState } from 'react';
import type { FolderListing } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { ModalSheet } from './ModalSheet.tsx';
import { Notice } from './Notice.tsx';

// The OS's folder dialog where there is none (the app in a browser, `npm run app:web`): the folders of the
// user's home, served by core (`folders:list`), walked down and up, and the one shown chosen (New batch's
// "Open Folder…", an export's "Choose folder…").

/**
 * The folder browser's first listing where the front end has one, else null: the caller opens the OS's
 * dialog instead.
 */
export function browsableHome(): Promise<FolderListing | null> {
  return api.call('folders:list', {});
}

export function FolderBrowser({
  start,
  chooseLabel,
  onChoose,
  onClose,
}: {
  start: FolderListing;
  /** What choosing the folder shown does: "Add this folder", "Export here". */
  chooseLabel: string;
  onChoose: (folder: string) => void;
  onClose: () => void;
}) {
  const [listing, setListing] = useState(start);
  const [error, setError] = useState<string | null>(null);
  const go = async (path: string) => {
    setError(null);
    try {
      const next = await api.call('folders:list', { path });
      if (next) setListing(next);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <ModalSheet labelledBy="folder-browser-title" className="folder-browser" onClose={onClose}>
      <h2 id="folder-browser-title">Choose a folder</h2>
      <p className="folder-browser-path" data-testid="folder-browser-path">
        {listing.path}
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      <ul className="folder-browser-list" aria-label="Folders inside">
        {listing.parent && (
          <li>
            <button type="button" className="link" onClick={() => void go(listing.parent!)}>
              ↑ Up to the folder above
            </button>
          </li>
        )}
        {listing.folders.map((folder) => (
          <li key={folder.path}>
            <button type="button" className="link" onClick={() => void go(folder.path)}>
              {folder.name}
            </button>
          </li>
        ))}
        {listing.folders.length === 0 && <li className="muted">No folders inside.</li>}
      </ul>
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => onChoose(listing.path)}>
          {chooseLabel}
        </button>
      </div>
    </ModalSheet>
  );
}
