import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * The renderer shows local images (thumbnails, photos, results) through URLs that main serves: a custom
 * protocol in Electron, an HTTP path in the browser harness. Only files registered here are served, each
 * under an unguessable token, so the renderer can never ask for an arbitrary path.
 */
export class FileGateway {
  private readonly pathByToken = new Map<string, string>();
  private readonly tokenByPath = new Map<string, string>();

  constructor(private readonly urlOfToken: (token: string) => string) {}

  url(path: string): string {
    // A path asked for before is already absolute and normalised: found without resolving it again, which
    // counts when Review asks for 32,000 URLs at once.
    const known = this.tokenByPath.get(path);
    if (known) return this.urlOfToken(known);
    const absolute = resolve(path);
    let token = this.tokenByPath.get(absolute);
    if (!token) {
      token = randomBytes(18).toString('base64url');
      this.tokenByPath.set(absolute, token);
      this.pathByToken.set(token, absolute);
    }
    return this.urlOfToken(token);
  }

  /** The file behind a token, or null for anything not registered. */
  resolve(token: string): string | null {
    return this.pathByToken.get(token) ?? null;
  }
}
