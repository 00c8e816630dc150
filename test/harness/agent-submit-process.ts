import { parseArgs } from 'node:util';
import { SANDBOX_ACCOUNT_ID } from '../../src-main/core/app/public-api.ts';
import { callCore, startCoreHarness } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { printReply, startSignal } from './race-signal.ts';

// An agent on a core in a process of its own (as `adbatch mcp` beside the app), for a race across processes
// on one data folder: it scans --products, has them quoted for the agent on the Sandbox account (a sandbox
// running elsewhere), says `quoted`, and on SIGUSR2 submits the quote through the handler map and prints the
// answer. The test sends SIGUSR2 to every such process at once.
//
//   node --import tsx test/harness/agent-submit-process.ts --dir D --sandbox-url U --sandbox-key K
//        --products FOLDER --request-id ID
//
// stdout: `quoted <credits>`, then `answer <JSON of the request's view>` or `refused <JSON of the error>`.

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    'sandbox-url': { type: 'string' },
    'sandbox-key': { type: 'string' },
    products: { type: 'string' },
    'request-id': { type: 'string' },
  },
});
const { dir, products } = values;
const url = values['sandbox-url'];
const apiKey = values['sandbox-key'];
const clientRequestId = values['request-id'];
if (!dir || !url || !apiKey || !products || !clientRequestId) {
  process.stderr.write(
    'usage: agent-submit-process --dir D --sandbox-url U --sandbox-key K --products F --request-id ID\n',
  );
  process.exit(1);
}

const CLIENT = 'Agent in two processes';
const harness = await startCoreHarness({ dir, sandbox: { url, apiKey } });
const { core } = harness;
const go = startSignal();
const scan = await callCore(core, 'ingest:scan', { inputs: [products] });
const quote = await callCore(core, 'agents:quote', {
  client: CLIENT,
  request: {
    scanId: scan.scanId,
    accountId: SANDBOX_ACCOUNT_ID,
    shoot: QUICK_SHOOT,
    video: null,
    includeDone: false,
    name: `Raced by ${clientRequestId}`,
  },
});
process.stdout.write(`quoted ${quote.credits}\n`);
await go;
const reply = await core.dispatch('agents:submit', {
  client: CLIENT,
  quoteId: quote.quoteId,
  clientRequestId,
});
printReply(reply);
await harness.close();
process.exit(0);
