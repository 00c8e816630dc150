// What the processes of a race across processes share (agent-submit-process.ts, core-dispatch-process.ts):
// each waits for the test's SIGUSR2, so that all send their call at once, and prints the handler map's
// reply as one line the test reads.

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
