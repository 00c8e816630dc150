import { request } from 'node:http';

// A raw request to a server on this machine that names another Host, as a web page reached by DNS
// rebinding would (fetch() cannot forge the header). Issue 28: every listening port refuses it.

export interface RawAnswer {
  status: number;
  body: string;
}

export function requestWithHost(
  origin: string,
  path: string,
  host: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname.replace(/^\[(.*)\]$/, '$1'),
        port,
        path,
        method: options.method ?? 'GET',
        agent: false,
        headers: { ...options.headers, host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
