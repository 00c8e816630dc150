import { z } from 'zod';
import type { FolderListing, ScannedProductView, ScanView } from '../models.ts';
import { channel, none } from './channel.ts';

// Folders, photos and catalogs to products (core/ingest/).

export const scanId = z.string().min(1).max(100);

/** A front end's name for one scan under way, so that cancelling it never cancels another's. */
export const scanToken = z.string().min(1).max(100);

export const ingestChannels = {
  /** The OS dialog to choose folders, photos or catalogs; [] when cancelled. */
  'dialog:open': channel<string[]>()(none),
  /** `subfolders`: a folder of photos inside another, a product of its own (default) or part of the one above. */
  'ingest:scan': channel<ScanView>()(
    z
      .object({
        inputs: z.array(z.string().min(1).max(4096)).min(1).max(10_000),
        pattern: z.string().max(500).optional(),
        subfolders: z.enum(['own', 'parent']).optional(),
        /** Names the scan for `ingest:cancelScan`; a scan without one cannot be cancelled. */
        scanToken: scanToken.optional(),
      })
      .strict(),
  ),
  /**
   * Stops the scan under way with this token (a large catalog's, say): it is refused as cancelled, nothing is
   * held; other scans run on. A token no scan has (one already finished) is nothing to stop.
   */
  'ingest:cancelScan': channel<null>()(z.object({ scanToken }).strict()),
  /** Makes another of a scanned product's photos its hero (sent first); the others keep their order. */
  'ingest:hero': channel<ScannedProductView>()(
    z
      .object({
        scanId,
        product: z.string().min(1).max(1000),
        photo: z.number().int().min(0).max(100),
      })
      .strict(),
  ),
  /** Leaves a scanned product out of the batch, or takes it back in: for this scan and the next ones. */
  'ingest:leaveOut': channel<null>()(
    z.object({ scanId, product: z.string().min(1).max(1000), out: z.boolean() }).strict(),
  ),
};

/**
 * The folder browser of a front end with no OS dialog (the app in a browser: `npm run app:web`), served by
 * core within the user's home (core/ingest/folder-browser.ts).
 */
export const foldersChannels = {
  /**
   * The folders inside `path` (the home when none is given), to choose one to add. null where the front end
   * has the OS's dialog instead (`dialog:open`): the desktop app.
   */
  'folders:list': channel<FolderListing | null>()(
    z.object({ path: z.string().min(1).max(4096).optional() }).strict(),
  ),
};
