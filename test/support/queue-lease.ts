import { join } from 'node:path';
import { type Lease, tryAcquireLease } from '../../src-main/core/lease.ts';

// The queue of a fresh folder's data folder, held by the test as another process holds it (`adbatch run`
// beside the app, or the app beside `adbatch mcp`): a core started on that folder sends nothing until the
// lease is released.

/** Takes the queue's lease of `<dir>/data`, in the name of `holder`; throws if it is taken already. */
export function holdQueue(dir: string, holder = 'the test'): Lease {
  const attempt = tryAcquireLease(join(dir, 'data'), holder);
  if (!attempt.ok) throw new Error(`the queue of ${dir} is held already: a fresh folder was expected`);
  return attempt.lease;
}
