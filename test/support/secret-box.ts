import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../src-main/core/app/secrets.ts';

/**
 * Stands in for Electron's safeStorage outside Electron (tests, the browser harness): AES-256-GCM with a key
 * that lives only in this process, so what is stored is really sealed. `available: false` plays a machine
 * without a keychain.
 */
export function memorySecretBox(available = true): SecretBox {
  const key = randomBytes(32);
  return {
    available: () => available,
    seal(plain) {
      if (!available) throw new Error('no secure storage');
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
