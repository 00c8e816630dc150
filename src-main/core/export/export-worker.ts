import { parentPort } from 'node:worker_threads';
import { type ExportOptions, runExport } from './run.ts';

// The export run in a worker thread (run-in-worker.ts starts it): the decoded pixels, the encoded files,
// their hashes and the garbage they leave all live in this thread's heap, so neither the work nor its
// garbage collections pause the app's event loop.

export type WorkerRequest =
  | { type: 'run'; options: Omit<ExportOptions, 'signal' | 'onProgress' | 'onFile' | 'now'> }
  | { type: 'cancel' };

const controller = new AbortController();

parentPort!.on('message', (message: WorkerRequest) => {
  if (message.type === 'cancel') {
    controller.abort();
    return;
  }
  runExport({
    ...message.options,
    signal: controller.signal,
    onProgress: (progress) => parentPort!.postMessage({ type: 'progress', progress }),
    onFile: (outcome) => parentPort!.postMessage({ type: 'file', outcome }),
  }).then(
    (report) => parentPort!.postMessage({ type: 'report', report }),
    (error: Error) => parentPort!.postMessage({ type: 'error', message: error.message, stack: error.stack }),
  );
});
