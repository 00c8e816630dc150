import type { Settings } from '../../shared/models.ts';
import type { QueueStore } from '../queue/store.ts';
import type { AccountStore } from './accounts.ts';
import type { BrandStore } from './brands.ts';
import type { CoreEvents } from './events.ts';
import type { FileGateway } from './files.ts';
import type { PhotoReachService } from './photo-reach.ts';
import type { PhotoStorage } from './photo-storage.ts';
import type { QueueDriver } from './queue-driver.ts';
import type { ScanHolder } from './scan-holder.ts';
import type { ServiceAccess } from './service-access.ts';

// What every domain's handlers are given: the services `createCore` built once. A handler module takes
// this and returns its part of the typed map; none builds a service of its own.

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

export interface CoreContext {
  dataDir: string;
  version: string;
  now: () => number;
  log: Logger;
  store: QueueStore;
  accounts: AccountStore;
  brands: BrandStore;
  storage: PhotoStorage;
  services: ServiceAccess;
  photos: PhotoReachService;
  queue: QueueDriver;
  events: CoreEvents;
  files: FileGateway;
  scans: ScanHolder;
  settings(): Settings;
  writeSettings(settings: Settings): void;
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
