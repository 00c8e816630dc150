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
