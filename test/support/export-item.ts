import type { ExportItem } from '../../src-main/core/export/export-item.ts';
import type { PlacedBefore } from '../../src-main/core/export/placed-before.ts';
import { PREFLIGHT_WARNINGS } from '../../src-main/shared/vocabulary.ts';

// A result to export, with everything a test does not set: a picked shot of the Solidus cap. Apart from
// export-sources.ts (which makes the files with sharp and the sandbox's renderer), so that a test that plans
// names only imports nothing heavy.

export function exportItem(overrides: Partial<ExportItem> & { key: string; file: string }): ExportItem {
  return {
    kind: 'shot',
    productKey: 'cap',
    brand: 'Solidus',
    product: 'Cap',
    sku: 'B000CAP001',
    handle: 'cap-black',
    title: 'Cap',
    alt: '',
    style: 'classic',
    shot: 1,
    stars: 0,
    flag: 'picked',
    batch: 'Autumn',
    jobId: 'job-1',
    credits: 4,
    sourcePhotos: ['solidus_cap_black_1.png'],
    aiGenerated: true,
    ...overrides,
  };
}

/**
 * "Export anyway" for every pre-flight warning: for the tests of writing, naming and resuming, which
 * write every file the plan holds (the pre-flight's own tests choose what they accept).
 */
export const ACCEPT_ALL = [...PREFLIGHT_WARNINGS];

/** A file an export placed, as its records remember it (`rememberPlaced`): under its planned path, with these bytes. */
export function placedFile(relativePath: string, sha256: string): PlacedBefore {
  return {
    plannedPath: relativePath,
    renderKey: `key-${relativePath}`,
    relativePath,
    sha256,
    bytes: 10,
    width: 1,
    height: 1,
    warnings: [],
  };
}
