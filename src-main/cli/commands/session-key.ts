import { looksLikeApiKey } from '../../core/app/public-api.ts';
import type { SessionKey } from '../../core/create-core.ts';

// The CLI's key for a service: ADBATCH_API_KEY, never a flag (it would land in shell history and `ps`).

export function sessionKeyFromEnv(baseUrl: string): SessionKey {
  const apiKey = process.env.ADBATCH_API_KEY?.trim();
  if (!apiKey) throw new Error('ADBATCH_API_KEY is not set: it holds the API key for --base-url');
  if (!looksLikeApiKey(apiKey)) {
    throw new Error(
      'ADBATCH_API_KEY does not look like an API key (a prefix, "_", then 64 hexadecimal characters)',
    );
  }
  return { baseUrl, apiKey };
}

/**
 * The key in ADBATCH_API_KEY if one is given (resume, redownload, videos, reshoot): it opens the batches made
 * with it, each at the base URL it was started with; without it only sandbox batches run.
 */
export function sessionKeysFromEnv(): SessionKey[] {
  const apiKey = process.env.ADBATCH_API_KEY?.trim();
  return apiKey ? [{ apiKey }] : [];
}
