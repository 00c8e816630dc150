import type { SafeStorage } from 'electron';
import type { SecretBox } from '../core/app/public-api.ts';

/** API keys sealed by the OS keychain (Keychain, DPAPI, libsecret/kwallet). */
export function safeStorageBox(
  safeStorage: Pick<
    SafeStorage,
    'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'
  >,
  platform: NodeJS.Platform,
): SecretBox {
  return {
    // On Linux without a keyring, Electron falls back to a hard-coded password ('basic_text'): that is not
    // sealing, so it counts as unavailable.
    available: () =>
      safeStorage.isEncryptionAvailable() &&
      (platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
    seal: (plain) => safeStorage.encryptString(plain),
    open: (sealed) => safeStorage.decryptString(sealed),
  };
}
