import { parseArgs } from 'node:util';
import type { Channel } from '../../src-main/shared/ipc.ts';
import { startCoreHarness } from '../support/core-harness.ts';
import { printReply, startSignal } from './race-signal.ts';

// A core in a process of its own on a data folder (as the app, or `adbatch mcp`, beside another), for a race
// across processes: it says `ready`, and on SIGUSR2 dispatches one call through the handler map and prints
// the answer. The test sends SIGUSR2 to every such process at once.
//
//   node --import tsx test/harness/core-dispatch-process.ts --dir D --sandbox-url U --sandbox-key K
//        --channel jobs:retry --args '{"id":"j_…"}'
//
// stdout: `ready`, then `answer <JSON of the value>` or `refused <JSON of the error>`.

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    'sandbox-url': { type: 'string' },
    'sandbox-key': { type: 'string' },
    channel: { type: 'string' },
    args: { type: 'string' },
  },
});
const { dir, channel, args } = values;
const url = values['sandbox-url'];
const apiKey = values['sandbox-key'];
if (!dir || !url || !apiKey || !channel || !args) {
  process.stderr.write(
    'usage: core-dispatch-process --dir D --sandbox-url U --sandbox-key K --channel C --args JSON\n',
  );
  process.exit(1);
}

const harness = await startCoreHarness({ dir, sandbox: { url, apiKey } });
const go = startSignal();
process.stdout.write('ready\n');
await go;
const reply = await harness.core.dispatch(channel as Channel, JSON.parse(args));
printReply(reply);
await harness.close();
process.exit(0);
