import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultRule } from './faults.ts';

/** A result file, served like a CDN would: no key, Content-Length, single byte ranges (206), HEAD. */
export async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  contentType: string,
  fault: FaultRule | null,
): Promise<number> {
  const { size } = await stat(path);
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start > end || start >= size) {
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return 416;
    }
    status = 206;
  }
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'content-length': end - start + 1,
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=86400, immutable',
  };
  if (status === 206) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  res.writeHead(status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return status;
  }
  const stream = createReadStream(path, { start, end });
  if (fault?.action === 'reset') {
    // Send about half of the bytes, then drop the connection: a download that must not pass for complete.
    let sent = 0;
    const half = Math.floor((end - start + 1) / 2);
    stream.on('data', (chunk) => {
      const piece = chunk as Buffer;
      if (sent + piece.length >= half) {
        res.write(piece.subarray(0, half - sent));
        stream.destroy();
        res.destroy();
        return;
      }
      sent += piece.length;
      res.write(piece);
    });
    return status;
  }
  if (fault?.action === 'malformed') {
    stream.on('data', (chunk) =>
      res.write(Buffer.from(chunk as Buffer).map((byte, index) => (index % 7 === 0 ? byte ^ 0xff : byte))),
    );
    stream.on('end', () => res.end());
    return status;
  }
  stream.pipe(res);
  return status;
}
