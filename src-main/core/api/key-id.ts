import { createHash } from 'node:crypto';

/**
 * A one-way id of an API key: what the queue stores to group a key's batches and request budget, and to
 * check on resume that the key given is the one a batch was started with, without storing the key.
 */
export function apiKeyId(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
}
