import type { Channel } from '../../src-main/shared/ipc.ts';
import { printReply, raceCore, startSignal } from './race-signal.ts';

// A core in a process of its own on a data folder (as the app, or `adbatch mcp`, beside another), for a race
// across processes: it says `ready`, and on SIGUSR2 dispatches one call through the handler map and prints
// the answer. The test sends SIGUSR2 to every such process at once.
//
//   node --import tsx test/harness/core-dispatch-process.ts --dir D --sandbox-url U --sandbox-key K
//        --channel jobs:retry --args '{"id":"j_…"}'
//
// stdout: `ready`, then `answer <JSON of the value>` or `refused <JSON of the error>`.

const { harness, flags } = await raceCore('core-dispatch-process', ['channel', 'args']);
const go = startSignal();
process.stdout.write('ready\n');
await go;
const reply = await harness.core.dispatch(flags.channel as Channel, JSON.parse(flags.args));
printReply(reply);
await harness.close();
process.exit(0);
