import { parseArgs } from 'node:util';
import { type CoreHarness, startCoreHarness } from '../support/core-harness.ts';

// What the processes of a race across processes share (agent-submit-process.ts, core-dispatch-process.ts):
// a core on the data folder and sandbox their flags name, a wait for the test's SIGUSR2 so that all send
// their call at once, and the handler map's reply printed as one line the test reads.

/**
 * The core of a race process, on `--dir D --sandbox-url U --sandbox-key K`, and the values of its own
 * string flags (`own`), each required: a usage line on stderr and exit 1 when one is missing.
 */
export async function raceCore<Own extends string>(
  name: string,
  own: readonly Own[],
): Promise<{ harness: CoreHarness; flags: Record<Own, string> }> {
  const flags = ['dir', 'sandbox-url', 'sandbox-key', ...own];
  const { values } = parseArgs({
    options: Object.fromEntries(flags.map((flag) => [flag, { type: 'string' as const }])),
  });
  const given = values as Record<string, string | undefined>;
  const missing = flags.filter((flag) => !given[flag]);
  if (missing.length > 0) {
    const usage = flags.map((flag) => `--${flag} …`).join(' ');
    process.stderr.write(`usage: ${name} ${usage} (missing: ${missing.join(', ')})\n`);
    process.exit(1);
  }
  const harness = await startCoreHarness({
    dir: given.dir!,
    sandbox: { url: given['sandbox-url']!, apiKey: given['sandbox-key']! },
  });
  return { harness, flags: given as Record<Own, string> };
}

/**
 * Resolves on SIGUSR2. A signal's listener does not keep Node running, and the core's timers are unref'd:
 * an interval keeps the process waiting for it.
 */
export function startSignal(): Promise<void> {
  const waiting = setInterval(() => {}, 60_000);
  return new Promise<void>((resolve) => process.once('SIGUSR2', () => resolve())).finally(() =>
    clearInterval(waiting),
  );
}

/** `answer <JSON of the value>` or `refused <JSON of the error>`, on stdout. */
export function printReply(reply: { ok: true; value: unknown } | { ok: false; error: unknown }): void {
  process.stdout.write(
    reply.ok ? `answer ${JSON.stringify(reply.value)}\n` : `refused ${JSON.stringify(reply.error)}\n`,
  );
}
