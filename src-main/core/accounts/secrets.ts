/**
 * Seals secrets (API keys) at rest. In the app this is Electron's safeStorage (the OS keychain); core only
 * sees this interface. When `available()` is false nothing is stored: a key is never kept in the clear.
 */
export interface SecretBox {
  available(): boolean;
  seal(plain: string): Buffer;
  open(sealed: Buffer): string;
}
