import type { PreflightSummaryView } from '../../shared/models.ts';
import { PREFLIGHT_ERRORS, PREFLIGHT_WARNINGS, type PreflightWarning } from '../../shared/vocabulary.ts';
import { nothingWrittenWords, PREFLIGHT_WORDS } from '../../shared/words.ts';
import { blockingReasons, type PreflightCheck } from './plan-checks.ts';

// The pre-flight up front: of all the planned files' checks, each kind with how many files it concerns,
// errors first, and how many files the export would hold back as the request stands. What the export
// dialog, the CLI and the agents show before an export starts.

export interface PreflightSummary {
  kinds: PreflightSummaryView[];
  blocked: number;
}

export function summarisePreflight(
  checksPerFile: readonly (readonly PreflightCheck[])[],
  accepted: readonly PreflightWarning[],
): PreflightSummary {
  const found = new Map<PreflightCheck['kind'], { files: number; example: string }>();
  let blocked = 0;
  for (const checks of checksPerFile) {
    if (blockingReasons(checks, accepted).length > 0) blocked++;
    for (const kind of new Set(checks.map((check) => check.kind))) {
      const entry = found.get(kind);
      if (entry) entry.files++;
      else found.set(kind, { files: 1, example: checks.find((check) => check.kind === kind)!.message });
    }
  }
  const acceptedKinds = new Set<string>(accepted);
  const view = (kind: PreflightCheck['kind']) => {
    const entry = found.get(kind);
    return entry ? [{ words: PREFLIGHT_WORDS[kind], files: entry.files, example: entry.example }] : [];
  };
  const kinds: PreflightSummaryView[] = [
    ...PREFLIGHT_ERRORS.flatMap((kind) =>
      view(kind).map((seen) => ({ ...seen, kind, severity: 'error' as const, accepted: false })),
    ),
    ...PREFLIGHT_WARNINGS.flatMap((kind) =>
      view(kind).map((seen) => ({
        ...seen,
        kind,
        severity: 'warning' as const,
        accepted: acceptedKinds.has(kind),
      })),
    ),
  ];
  return { kinds, blocked };
}

/**
 * Why an export would write nothing: the pre-flight holds back every one of its files (known before any is
 * rendered: sizes, paths). Null when some file would be written. The app's dialog offers no Export then;
 * the CLI and agents are refused (`nothingWrittenWords`), before a folder is made or a manifest written,
 * rather than answered "done: 0 written" with a failure per file.
 */
export function nothingWouldBeWritten(
  checksPerFile: readonly (readonly PreflightCheck[])[],
  accepted: readonly PreflightWarning[],
): string | null {
  if (checksPerFile.some((checks) => blockingReasons(checks, accepted).length === 0)) return null;
  return nothingWrittenWords(checksPerFile.length, summarisePreflight(checksPerFile, accepted).kinds);
}
