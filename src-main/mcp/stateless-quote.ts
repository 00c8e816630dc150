import { Refusal } from '../core/app/dispatch.ts';
import type { ProblemView, SkippedView } from '../shared/models.ts';
import type { CoreCall } from './server.ts';

// quote_batch for clients that start a server per call (issue 30, point 2): it takes the paths themselves,
// or a scan id as a shortcut (kept 30 minutes in the database, as quotes are), and says which products it
// left out as already shot, and why, and what Adbatch wrote that the paths held, rather than answer a silent
// zero.

/** The scan to quote (the paths scanned now, or the scan id given), and what of Adbatch's it passed over. */
export async function scanOf(
  call: CoreCall,
  input: { paths?: string[]; scanId?: string },
): Promise<{ scanId: string; skipped: Array<{ folder: string; reason: string }> }> {
  if (input.paths) {
    const scan = await call('agents:scan', { inputs: input.paths });
    return { scanId: scan.scanId, skipped: adbatchSkipped(scan.skippedFiles) };
  }
  // scan_inputs said what it passed over.
  if (input.scanId) return { scanId: input.scanId, skipped: [] };
  throw new Refusal('bad_request', 'Give the paths to quote (or the scanId scan_inputs answered).');
}

/**
 * What Adbatch wrote that a scan found and passed over (its folders, copies of its files), as scan_inputs and
 * quote_batch answer it: never quoted, never shot.
 */
export function adbatchSkipped(skipped: readonly SkippedView[]): Array<{ folder: string; reason: string }> {
  return skipped.filter((one) => one.adbatchFolder).map((one) => ({ folder: one.file, reason: one.reason }));
}

/** The products a quote left out because they were shot (or are being shot) with these settings already. */
export function alreadyShot(setAside: ProblemView[]): Array<{ product: string; reason: string }> {
  return setAside
    .filter((problem) => problem.code === 'already_done' || problem.code === 'in_progress')
    .map((problem) => ({ product: problem.file, reason: problem.reason }));
}
