import { SANDBOX_ACCOUNT_ID } from '../../src-main/core/app/public-api.ts';
import { callCore } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { printReply, raceCore, startSignal } from './race-signal.ts';

// An agent on a core in a process of its own (as `adbatch mcp` beside the app), for a race across processes
// on one data folder: it scans --products, has them quoted for the agent on the Sandbox account (a sandbox
// running elsewhere), says `quoted`, and on SIGUSR2 submits the quote through the handler map and prints the
// answer. The test sends SIGUSR2 to every such process at once.
//
//   node --import tsx test/harness/agent-submit-process.ts --dir D --sandbox-url U --sandbox-key K
//        --products FOLDER --request-id ID
//
// stdout: `quoted <credits>`, then `answer <JSON of the request's view>` or `refused <JSON of the error>`.

const { harness, flags } = await raceCore('agent-submit-process', ['products', 'request-id']);
const { products } = flags;
const clientRequestId = flags['request-id'];

const CLIENT = 'Agent in two processes';
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
