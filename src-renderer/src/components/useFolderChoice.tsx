import { type ReactNode, useState } from 'react';
import type { FolderListing } from '../../../src-main/shared/models.ts';
import { browsableHome, FolderBrowser } from './FolderBrowser.tsx';

// A folder chosen the way this front end can: the OS's dialog in the desktop app; in a browser, which has
// none (`npm run app:web`), core's folder browser. Every "Choose folder…" goes through here, so none of them
// is a button that does nothing in a browser.

export interface FolderChoice {
  /** Opens the OS dialog or the folder browser; a failure (core's refusal in words) is thrown. */
  choose(): Promise<void>;
  /** The folder browser while it is open, to render where the caller renders its dialogs. */
  sheet: ReactNode;
}

export function useFolderChoice(options: {
  /** What choosing the folder shown does, on the folder browser's button: "Export here". */
  chooseLabel: string;
  /** The desktop app's own dialog for this choice: the folder chosen, or null when cancelled. */
  osDialog: () => Promise<string | null>;
  onChoose: (folder: string) => void;
}): FolderChoice {
  const [browsing, setBrowsing] = useState<FolderListing | null>(null);
  const choose = async () => {
    const home = await browsableHome();
    if (home) {
      setBrowsing(home);
      return;
    }
    const folder = await options.osDialog();
    if (folder) options.onChoose(folder);
  };
  const sheet = browsing && (
    <FolderBrowser
      start={browsing}
      chooseLabel={options.chooseLabel}
      onClose={() => setBrowsing(null)}
      onChoose={(folder) => {
        setBrowsing(null);
        options.onChoose(folder);
      }}
    />
  );
  return { choose, sheet };
}
