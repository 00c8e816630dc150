// How local photos become URLs the service can fetch. The engine knows only this interface; which host is
// used (loopback for a service on this machine, S3-compatible storage for a remote one) is the caller's
// choice. Catalog photos already have public URLs and never reach a host.

export interface HostingProgress {
  /** Photos made reachable so far (uploaded, or found already there). */
  done: number;
  total: number;
  /** Bytes actually sent; photos found already there add nothing. */
  bytesSent: number;
}

export interface PhotoHost {
  /**
   * True when what was made reachable stays so after this process ends (objects in a bucket); false for a
   * host that serves files from this process, which must be told again after a restart.
   */
  readonly persistent: boolean;
  /**
   * Makes these files reachable ahead of use, with bounded concurrency (an upload, for storage). Safe to
   * call again with the same files: what is already there is not sent twice. Rejects with a message that
   * names the file when one cannot be made reachable.
   */
  prepare(paths: readonly string[], onProgress?: (progress: HostingProgress) => void): Promise<void>;
  /** The URL the service fetches this file from; prepares it first when `prepare` has not. */
  urlFor(path: string): Promise<string>;
  close(): Promise<void>;
}
