import { z } from 'zod';
import { ALLOWED_HOST, ALLOWED_HOST_RULE } from '../allowed-host.ts';
import type { AppInfo, CatalogView, Settings } from '../models.ts';
import { channel, none } from './channel.ts';

/** One host allowed by name: `host` or `host:port` (core/net/outbound-policy.ts reads it; this only bounds it). */
const allowedHost = z.string().trim().min(1).max(300).regex(ALLOWED_HOST, ALLOWED_HOST_RULE);

// The app's own facts and preferences, and the catalog a batch is chosen from (core/settings/).

export const settingsChannels = {
  'app:info': channel<AppInfo>()(none),
  'settings:get': channel<Settings>()(none),
  'settings:set': channel<Settings>()(
    z
      .object({
        libraryDir: z.string().min(1).max(4096),
        budgetMarginPercent: z.number().int().min(0).max(50),
        allowedHosts: z.array(allowedHost).max(200),
        csvBom: z.boolean(),
      })
      .partial()
      .strict(),
  ),
  /** Shows the library (or a batch's folder) in Finder / Explorer / the file manager: the folder, and why not. */
  'library:reveal': channel<{ folder: string; failure: string | null }>()(
    z.object({ batchId: z.string().min(1).max(200).optional() }).strict(),
  ),
};

export const catalogChannels = {
  /** The styles, qualities, lengths and resolutions a batch can be made of, and where a new one starts. */
  'catalog:get': channel<CatalogView>()(none),
};
