import { z } from 'zod';
import type { PhotoStorageView } from '../models.ts';
import { channel, none, url } from './channel.ts';

// The photo storage a remote service fetches local photos from (core/hosting/).

/** SigV4 presigned URLs cannot be valid for longer than a week: S3's own limit. */
export const MAX_S3_URL_TTL_SECONDS = 7 * 24 * 60 * 60;

export const storageChannels = {
  /** The photo storage set up for remote services; null when none is. */
  'storage:get': channel<PhotoStorageView | null>()(none),
  /** Checks the storage end to end (a test photo uploaded and read back), then keeps it, secret sealed. */
  'storage:set': channel<PhotoStorageView>()(
    z
      .object({
        bucket: z.string().trim().min(1).max(255),
        endpoint: url.optional(),
        region: z.string().trim().min(1).max(64).optional(),
        prefix: z.string().trim().max(512).optional(),
        publicBaseUrl: url.optional(),
        urlTtlHours: z
          .number()
          .int()
          .min(1)
          .max(MAX_S3_URL_TTL_SECONDS / 3600)
          .optional(),
        accessKeyId: z.string().trim().min(1).max(256).optional(),
        secretAccessKey: z.string().min(1).max(1024).optional(),
      })
      .strict(),
  ),
  'storage:clear': channel<null>()(none),
};
