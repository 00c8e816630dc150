import { describe, expect, it } from 'vitest';
import { safeStorageBox } from '../../../src-main/electron/safe-storage-box.ts';

function fakeSafeStorage(available: boolean, backend = 'gnome_libsecret') {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend as never,
    encryptString: (plain: string) => Buffer.from(plain, 'utf8').reverse(),
    decryptString: (sealed: Buffer) => Buffer.from(sealed).reverse().toString('utf8'),
  };
}

describe('safeStorageBox', () => {
  it('seals and opens through safeStorage', () => {
    const box = safeStorageBox(fakeSafeStorage(true), 'darwin');
    expect(box.available()).toBe(true);
    const sealed = box.seal('adsk_secret');
    expect(sealed.toString('utf8')).not.toContain('adsk_secret');
    expect(box.open(sealed)).toBe('adsk_secret');
  });

  it('counts as unavailable without encryption, and on Linux with only the basic_text fallback', () => {
    expect(safeStorageBox(fakeSafeStorage(false), 'win32').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'basic_text'), 'linux').available()).toBe(false);
    expect(safeStorageBox(fakeSafeStorage(true, 'kwallet5'), 'linux').available()).toBe(true);
  });
});
