import { describe, expect, it } from 'vitest';
import { safeStorageBox } from '../../../src-main/electron/safe-storage-box.ts';

// The box's own decision is whether safeStorage really seals here. Sealing itself is Electron's (the OS
// keychain), and what core stores is proven sealed on the real SQLite rows with a real cipher
// (test/support/sealing.ts); a round trip through a stand-in cipher here would prove nothing.

function fakeSafeStorage(available: boolean, backend = 'gnome_libsecret') {
  const unused = () => {
    throw new Error('not used by availability');
  };
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend as never,
    encryptString: unused,
    decryptString: unused,
  };
}

describe('safeStorageBox', () => {
  it('counts as unavailable without encryption, and on Linux with only the basic_text fallback', () => {
    expect(safeStorageBox(fakeSafeStorage(false), 'win32').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'basic_text'), 'linux').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'kwallet5'), 'linux').available()).toBe(true);
  });
});
