import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerRequest } from './export-worker.ts';
import type { ExportOptions, ExportProgress, ExportReport, FileOutcome } from './run.ts';

// runExport in a worker thread, with the same options and answer: progress and cancel cross the
// thread boundary as messages. The plan is copied to the worker when the run starts (structured clone),
// which is one more reason a setting changed afterwards cannot reach the run.

type WorkerAnswer =
  | { type: 'progress'; progress: ExportProgress }
  | { type: 'file'; outcome: FileOutcome }
  | { type: 'report'; report: ExportReport }
  | { type: 'error'; message: string; stack?: string };

/**
 * The worker's entry, beside this module: from the TypeScript sources (tests, scripts run by tsx) the `.ts`
 * file, loaded with tsx; in the built main process (electron-vite bundles this module into
 * out/main/index.js) and the built CLI (out/cli, scripts/build-cli.mjs) the `export-worker.js` entry each
 * build makes beside it. The name is chosen at run time, so no bundler rewrites it.
 */
export const DEFAULT_WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './export-worker.ts' : './export-worker.js',
  import.meta.url,
);

/** tsx's loader named by its path: `--import tsx` would look for tsx from the current folder, not here. */
function loaderArgs(workerUrl: URL): string[] {
  if (!workerUrl.pathname.endsWith('.ts')) return [];
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

export async function runExportInWorker(
  options: Omit<ExportOptions, 'now'>,
  workerUrl: URL = DEFAULT_WORKER_URL,
): Promise<ExportReport> {
  const { signal, onProgress, onFile, ...rest } = options;
  signal?.throwIfAborted();
  const worker = new Worker(workerUrl, { execArgv: loaderArgs(workerUrl) });
  const cancel = () => worker.postMessage({ type: 'cancel' } satisfies WorkerRequest);
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await new Promise<ExportReport>((resolve, reject) => {
      worker.on('message', (answer: WorkerAnswer) => {
        if (answer.type === 'progress') onProgress?.(answer.progress);
        else if (answer.type === 'file') onFile?.(answer.outcome);
        else if (answer.type === 'report') resolve(answer.report);
        else reject(Object.assign(new Error(answer.message), { stack: answer.stack }));
      });
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`The export worker stopped (exit code ${code}) before it answered.`)),
      );
      worker.postMessage({ type: 'run', options: rest } satisfies WorkerRequest);
    });
  } finally {
    signal?.removeEventListener('abort', cancel);
    await worker.terminate();
  }
}
