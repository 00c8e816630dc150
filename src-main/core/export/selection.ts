import type { ExportItem } from './export-item.ts';

// What goes out of an export: by default the picks only. A source photo has no decision: it goes out
// when the export asks for source photos. A video goes out when asked for, by the same decision rule.

export interface Selection {
  /** `picked`: picks only; `picked-or-stars`: picks and results with at least `minStars`; `not-rejected`. */
  rule: 'picked' | 'picked-or-stars' | 'not-rejected';
  minStars: number;
  videos: boolean;
  sources: boolean;
}

export const DEFAULT_SELECTION: Selection = { rule: 'picked', minStars: 0, videos: true, sources: false };

function decisionKeeps(item: ExportItem, selection: Selection): boolean {
  switch (selection.rule) {
    case 'picked':
      return item.flag === 'picked';
    case 'picked-or-stars':
      return (
        item.flag === 'picked' || (item.flag !== 'rejected' && item.stars >= Math.max(1, selection.minStars))
      );
    case 'not-rejected':
      return item.flag !== 'rejected';
  }
}

/** The items the selection keeps, in their order. */
export function selectItems(items: readonly ExportItem[], selection: Selection): ExportItem[] {
  return items.filter((item) => {
    if (item.kind === 'source') return selection.sources;
    if (item.kind === 'video' && !selection.videos) return false;
    return decisionKeeps(item, selection);
  });
}

/** The scope's results made but whose files are not on this computer, by kind. */
export interface NotDownloaded {
  shot: number;
  video: number;
}

/** The results not downloaded in words, as `leftOutOf` says the rest ("2 photos not yet downloaded …"). */
export function notDownloadedLeftOut(counts: NotDownloaded): string[] {
  return (['shot', 'video'] as const).flatMap((kind) => {
    const count = counts[kind];
    if (count === 0) return [];
    const what = kind === 'video' ? (count === 1 ? 'video' : 'videos') : count === 1 ? 'photo' : 'photos';
    return [`${count} ${what} not yet downloaded ${count === 1 ? 'is' : 'are'} not exported`];
  });
}

/** Why a result of the scope does not go out. */
type LeftOutReason = 'videos_not_asked' | 'rejected' | 'not_picked' | 'not_picked_or_starred' | 'no_recipe';

const LEFT_OUT_ORDER: readonly LeftOutReason[] = [
  'not_picked',
  'not_picked_or_starred',
  'rejected',
  'videos_not_asked',
  'no_recipe',
];

function reasonLeftOut(
  item: ExportItem,
  selection: Selection,
  kindsTaken: ReadonlySet<ExportItem['kind']>,
): LeftOutReason | null {
  if (item.kind === 'video' && !selection.videos) return 'videos_not_asked';
  if (!decisionKeeps(item, selection)) {
    if (item.flag === 'rejected') return 'rejected';
    return selection.rule === 'picked-or-stars' ? 'not_picked_or_starred' : 'not_picked';
  }
  return kindsTaken.has(item.kind) ? null : 'no_recipe';
}

function leftOutSentence(count: number, kind: 'shot' | 'video', reason: LeftOutReason, minStars: number) {
  const what = kind === 'video' ? (count === 1 ? 'video' : 'videos') : count === 1 ? 'photo' : 'photos';
  const are = count === 1 ? 'is' : 'are';
  switch (reason) {
    case 'not_picked':
      return `${count} ${what} not picked ${are} not exported`;
    case 'not_picked_or_starred':
      return `${count} ${what} neither picked nor given ${Math.max(1, minStars)} stars ${are} not exported`;
    case 'rejected':
      return `${count} ${what} rejected ${are} not exported`;
    case 'videos_not_asked':
      return `${count} ${what} ${are} not exported (videos are not asked for)`;
    case 'no_recipe':
      return `${count} ${what} kept ${are} not exported: none of the recipes takes ${kind === 'video' ? 'videos' : 'photos'}`;
  }
}

/**
 * What the scope's results this export leaves out, and why, in words the app, the CLI and MCP all show
 * ("11 videos not picked are not exported"): a selection never drops results silently. Source photos are
 * not results: they go out when asked for, and are not counted here.
 */
export function leftOutOf(
  items: readonly ExportItem[],
  selection: Selection,
  recipes: ReadonlyArray<{ kinds: readonly ExportItem['kind'][] }>,
): string[] {
  const kindsTaken = new Set(recipes.flatMap((recipe) => recipe.kinds));
  const counts = new Map<string, number>();
  for (const item of items) {
    if (item.kind === 'source') continue;
    const reason = reasonLeftOut(item, selection, kindsTaken);
    if (reason === null) continue;
    const key = `${item.kind}:${reason}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return (['shot', 'video'] as const).flatMap((kind) =>
    LEFT_OUT_ORDER.flatMap((reason) => {
      const count = counts.get(`${kind}:${reason}`) ?? 0;
      return count > 0 ? [leftOutSentence(count, kind, reason, selection.minStars)] : [];
    }),
  );
}
