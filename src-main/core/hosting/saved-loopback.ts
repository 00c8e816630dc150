import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type LoopbackHost, startLoopbackHost } from './loopback.ts';

// The loopback host of a data folder, for the CLI and the app alike. Local photos are served on the same
// port with the same secret as last time (when the port is free), so their URLs stay valid across a
// restart: a job created just before a crash may fetch its photos only after it (the service fetches them
// when it gets to the job), and a new secret or port would fail it for an unreachable input.

const FILE = 'photo-host.json';

export async function startSavedLoopbackHost(dataDir: string): Promise<LoopbackHost> {
  const file = join(dataDir, FILE);
  let saved: { secret?: string; port?: number } = {};
  try {
    saved = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    // First run, or an unreadable file: a new secret.
  }
  const secret = saved.secret ? Buffer.from(saved.secret, 'hex') : randomBytes(32);
  const host = await startLoopbackHost({ secret, port: saved.port ?? 0 });
  const port = Number(new URL(host.origin).port);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify({ secret: secret.toString('hex'), port }), { mode: 0o600 });
  return host;
}
