import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { planExport } from '../../src-main/core/export/plan.ts';
import { runExportInWorker } from '../../src-main/core/export/run-in-worker.ts';

// An export through the export worker, in a process of its own, for the test that runs it from a folder that
// is not the checkout: `node --import <tsx's loader by path> test/support/worker-export-child.ts
// <request.json> [worker.js]`. Without a worker file, the worker is the sources' (loaded with tsx, found
// from the module, as in development); with one, the built app's (out/main/export-worker.js, no tsx).
// Prints the report as JSON.

const request = JSON.parse(await readFile(process.argv[2]!, 'utf8'));
const worker = process.argv[3];
const plan = await planExport(request);
const report = await runExportInWorker(
  { plan, destination: request.destination },
  ...(worker ? [pathToFileURL(worker)] : []),
);
process.stdout.write(`${JSON.stringify(report)}\n`);
