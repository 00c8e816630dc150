import { Refusal } from '../core/app/dispatch.ts';
import type { ProblemView } from '../shared/models.ts';
import type { CoreCall } from './server.ts';

// quote_batch for clients that start a server per call (issue 30, point 2): it takes the paths themselves,
// or a scan id as a shortcut (kept 30 minutes in the database, as quotes are), and says which products it
// left out as already shot, and why, rather than answer a silent zero.

/** The scan to quote: the paths scanned now, or the scan id given. */
export async function scanOf(call: CoreCall, input: { paths?: string[]; scanId?: string }): Promise<string> {
  if (input.paths) return (await call('agents:scan', { inputs: input.paths })).scanId;
  if (input.scanId) return input.scanId;
  throw new Refusal('bad_request', 'Give the paths to quote (or the scanId scan_inputs answered).');
}

/** The products a quote left out because they were shot (or are being shot) with these settings already. */
export function alreadyShot(setAside: ProblemView[]): Array<{ product: string; reason: string }> {
  return setAside
    .filter((problem) => problem.code === 'already_done' || problem.code === 'in_progress')
    .map((problem) => ({ product: problem.file, reason: problem.reason }));
}
