import { randomUUID } from 'node:crypto';
import type { ArgsOf } from '../shared/ipc.ts';
import type { ScanView } from '../shared/models.ts';
import type { CliCore } from './open-core.ts';

// Ctrl+C while `adbatch scan` or `adbatch run` reads a large catalog (issue 28, point 3): the scan stops
// between checks (ingest:cancelScan, this scan's token alone), the command ends with a sentence and the
// exit status of an interruption, and nothing was planned or spent.

/** A scan stopped by Ctrl+C: its message is the sentence the user reads. */
export class ScanInterrupted extends Error {}

/** `ingest:scan`, cancelled by Ctrl+C. */
export async function scanUnlessInterrupted(
  cli: CliCore,
  args: Omit<NonNullable<ArgsOf<'ingest:scan'>>, 'scanToken'>,
): Promise<ScanView> {
  const scanToken = randomUUID();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    void cli.call('ingest:cancelScan', { scanToken }).catch(() => {});
  };
  process.once('SIGINT', interrupt);
  try {
    return await cli.call('ingest:scan', { ...args, scanToken });
  } catch (error) {
    if (interrupted) {
      throw new ScanInterrupted('Scan cancelled (Ctrl+C): nothing was planned, and nothing was spent.');
    }
    throw error;
  } finally {
    process.off('SIGINT', interrupt);
  }
}
