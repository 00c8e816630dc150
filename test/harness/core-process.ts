import { parseArgs } from 'node:util';
import { SANDBOX_ACCOUNT_ID } from '../../src-main/core/app/public-api.ts';
import { callCore, startCoreHarness } from '../support/core-harness.ts';
import { QUICK_SHOOT, QUICK_VIDEO } from '../support/job-settings.ts';

// The app's core in a process of its own, so a test can kill it (kill -9) and start it again on the same
// data folder: the core harness against a sandbox that runs in another process and outlives the kills.
// Given --products on a data folder without a batch, it scans that folder and creates one batch on the
// Sandbox account through the handler map (a Classic shot and a 5 s video per product), as the New batch
// screen does; otherwise it only starts the core, whose engine resumes unfinished batches by itself.
//
//   node --import tsx test/harness/core-process.ts --dir D --sandbox-url U --sandbox-key K --time-scale F
//        [--products FOLDER]
//
// stdout, one line each: `ready <batch id>` once the core is started (and the batch created), then
// `progress <done>/<jobs> <status>` as the batch moves, and `finished <batch id>` when it has ended
// (finished, or needs_you: ended with jobs in doubt).
// SIGTERM stops the core cleanly and exits 0.

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    'sandbox-url': { type: 'string' },
    'sandbox-key': { type: 'string' },
    'time-scale': { type: 'string' },
    products: { type: 'string' },
  },
});
const dir = values.dir;
const url = values['sandbox-url'];
const apiKey = values['sandbox-key'];
const timeScale = Number(values['time-scale']);
if (!dir || !url || !apiKey || !(timeScale > 0)) {
  process.stderr.write('usage: core-process --dir D --sandbox-url U --sandbox-key K --time-scale F\n');
  process.exit(1);
}

const harness = await startCoreHarness({ dir, timeScale, sandbox: { url, apiKey } });
const { core } = harness;
process.once('SIGTERM', () => {
  harness.close().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${(error as Error).stack}\n`);
      process.exit(1);
    },
  );
});

let [batch]: Array<{ id: string }> = await callCore(core, 'batches:list');
if (!batch && values.products) {
  const scan = await callCore(core, 'ingest:scan', { inputs: [values.products] });
  batch = await callCore(core, 'batches:create', {
    scanId: scan.scanId,
    accountId: SANDBOX_ACCOUNT_ID,
    shoot: QUICK_SHOOT,
    video: QUICK_VIDEO,
    includeDone: false,
    name: 'Crash',
  });
}
if (!batch) {
  process.stderr.write(`no batch in ${dir} and no --products to make one from\n`);
  process.exit(1);
}
const batchId = batch.id;
process.stdout.write(`ready ${batchId}\n`);

let last = '';
const report = (status: string, done: number, jobs: number) => {
  const line = `progress ${done}/${jobs} ${status}`;
  if (line === last) return;
  last = line;
  process.stdout.write(`${line}\n`);
  // A batch that ended with jobs in doubt (a create a kill interrupted) is shown as needs_you: it has ended
  // all the same, and waits for a person's decision on those jobs (issue 27).
  if (status === 'finished' || status === 'needs_you') process.stdout.write(`finished ${batchId}\n`);
};
core.events.on('batches:progress', (progress) => {
  if (progress.id === batchId) report(progress.status, progress.done, progress.jobs);
});
// A batch that had already ended before this start sends no progress.
const now = await callCore(core, 'batches:get', { id: batchId });
report(now.status, now.done, now.jobs);
