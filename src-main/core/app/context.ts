import type { Settings } from '../../shared/models.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import type { CoreEvents } from './events.ts';
import type { FileGateway } from './files.ts';

// What every domain's handlers are given beneath their own services: the data folder, the clock, the log,
// events, the file gateway, the preferences and what only the front end can do (the OS's dialogs). It lies
// below the domains (it names none of them), so a domain module may take it without an import running back
// up; each domain's handler module declares the services it needs beside it (`AccountsDeps`, ...), and
// `createCore` builds every service once and hands the same object to all of them.

export interface Preferences {
  /** The settings as the front end saved them, unchecked: core parses them field by field (db/stored.ts). */
  read(): unknown;
  write(settings: Settings): void;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface AppContext {
  dataDir: string;
  version: string;
  now: () => number;
  log: Logger;
  events: CoreEvents;
  files: FileGateway;
  settings(): Settings;
  writeSettings(settings: Settings): void;
  /** What input may be fetched from: the hosts allowed in Settings and for this session, over public ones. */
  outbound(): OutboundPolicy;
  /** The OS's open dialog (Electron); the browser harness answers with a folder of its choosing. */
  openDialog(): Promise<string[]>;
  /** The OS's open dialog for one image file (a logo); null when cancelled. */
  openImageDialog(): Promise<string | null>;
  /** Shows a folder in the OS file manager; answers why it could not (the OS's words), or null. */
  revealFolder(path: string): Promise<string | null>;
  /** The OS's dialog to choose a folder (an export's); null when cancelled. */
  openFolderDialog(): Promise<string | null>;
  /** Shows a file or folder selected in its folder, in the OS file manager. */
  revealItem(path: string): Promise<void>;
  /** Drags these files out of the window (Electron's `startDrag`), from a drag the page began. */
  startDrag(files: string[]): Promise<void>;
}
