import { DEFAULT_SANDBOX_TIME_SCALE } from '../../sandbox/embedded.ts';
import type { BatchSummary } from '../../shared/models.ts';
import { follow } from '../follow.ts';
import { type CliCore, openCliCore } from '../open-core.ts';
import { sessionKeysFromEnv } from './session-key.ts';

// What `redownload` and `recheck` share: a free decision on a job (j_…) or every job of a batch (b_…) that
// the queue then carries out, so the command takes the queue's lease and follows the batch to its end, as
// `resume` does, and exits as it ended.

export async function decideAndFollow(
  options: { dataDir: string; holderName: string; allowHosts: string[] },
  id: string,
  decide: (cli: CliCore, ofBatch: boolean) => Promise<BatchSummary>,
  say: (batch: BatchSummary) => string,
): Promise<void> {
  const cli = openCliCore({
    dataDir: options.dataDir,
    holderName: options.holderName,
    leaseMode: 'require',
    sessionKeys: sessionKeysFromEnv(),
    allowHosts: options.allowHosts,
    timeScale: DEFAULT_SANDBOX_TIME_SCALE,
  });
  try {
    await cli.core.start();
    process.exitCode = await follow(cli, async () => {
      const batch = await decide(cli, id.startsWith('b_'));
      process.stdout.write(`${say(batch)}\n`);
      return [batch.id];
    });
  } finally {
    await cli.core.stop();
  }
}
