import { checkKeyTransport, looksLikeApiKey } from '../../core/app/public-api.ts';
import type { SessionKey } from '../../core/create-core.ts';

// The CLI's key for a service: ADBATCH_API_KEY, never a flag (it would land in shell history and `ps`).

/** The flag, offered beside every --base-url, that lets a key go over plain http to another machine. */
export const INSECURE_HTTP_FLAG = '--insecure-http';
export const INSECURE_HTTP_HELP =
  'allow a plain http --base-url to another machine (the key would cross the network unencrypted)';

/** The key for --base-url, refused (before the key is read) when it would travel unencrypted. */
export function sessionKeyFromEnv(baseUrl: string, options: { insecureHttp?: boolean } = {}): SessionKey {
  const warning = checkKeyTransport(baseUrl, {
    insecureHttp: options.insecureHttp === true,
    override: INSECURE_HTTP_FLAG,
  });
  if (warning) process.stderr.write(`adbatch: ${warning}\n`);
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
