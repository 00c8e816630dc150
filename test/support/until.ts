import { setTimeout as sleep } from 'node:timers/promises';

// Waiting for a state that another part reaches when it reaches it (a batch finished, an export ended,
// another process's work seen from here), read every 50 ms. No patience of its own: how long that takes
// depends on the machine's load, and only the test's (or hook's) timeout, sized for a loaded machine,
// bounds the wait.

/** The first value `read` gives that is not null. */
export async function untilValue<T>(read: () => T | null | Promise<T | null>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    await sleep(50);
  }
}

/** Until `holds` is true. */
export async function until(holds: () => boolean | Promise<boolean>): Promise<void> {
  await untilValue(async () => ((await holds()) ? true : null));
}
