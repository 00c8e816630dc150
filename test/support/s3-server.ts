import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// A real S3-compatible server (s3rver) on 127.0.0.1, port 0, storing into a folder of the test's. It accepts
// the credentials S3RVER / S3RVER (and checks the access key, not the signature).

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3Server {
  endpoint: string;
  port: number;
  close(): Promise<void>;
}

/** `port`: a port used before, to bring a stopped store back where clients expect it. */
export async function startS3Server(directory: string, buckets: string[], port = 0): Promise<S3Server> {
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close: () => server.close(),
  };
}
