import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../src-main/core/accounts/secrets.ts';

/**
 * Stands in for Electron's safeStorage outside Electron (tests, the browser harness): AES-256-GCM with a key
 * that lives only in this process, so what is stored is really sealed. `available: false` plays a machine
 * without a keychain the way Electron does on Linux with the `basic_text` fallback: it still "seals", with a
 * key anyone can know, and only `available()` says that this protects nothing. So a test of a refusal shows
 * that core asked `available()`, not that sealing happened to throw.
 */
export function memorySecretBox(available = true): SecretBox {
  const key = available ? randomBytes(32) : Buffer.alloc(32, 'peanuts');
  return {
    available: () => available,
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
