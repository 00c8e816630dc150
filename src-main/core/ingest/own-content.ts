import type { AdbatchFolderKind } from '../../shared/models.ts';
import type { ExportRecords } from '../export/export-records.ts';
import type { AssetStore } from '../queue/asset-store.ts';
import type { BatchStore } from '../queue/batch-store.ts';

// What Adbatch wrote is never an input (issue 27, point 2), even as a single file copied out of the folders
// Adbatch marks: a designer who copies a few picked shots into a client's folder of originals, or an
// export's files moved out of their folder, and then drops that folder, would else pay to shoot Adbatch's
// own results. A photo's bytes say where it came from: the scan hashes every photo anyway (sha256 of the
// file as it is), and a result downloaded or a file an export placed is known by the same hash. A file
// edited since (cropped, re-saved) has other bytes, and is the designer's own; so is a photo a batch was
// shot from, whatever copy of it an export placed.

/** What Adbatch made of a photo, known by its sha256: the scan's kind and line for it; null if not its own. */
export type OwnContent = (sha256: string) => { kind: AdbatchFolderKind; reason: string } | null;

export function ownContentOf(batches: BatchStore, assets: AssetStore, exports: ExportRecords): OwnContent {
  return (sha256) => {
    const result = assets.withContent(sha256);
    const placed = result ? null : exports.placedWithContent(sha256);
    // The photos batches were shot from are the designer's, though an export copied them as they are (its
    // sources) or the service answered one unchanged.
    if ((!result && !placed) || batches.shotFrom(sha256)) return null;
    if (result) {
      const what = result.kind === 'thumbnail' ? 'a thumbnail' : 'a result';
      return {
        kind: 'results',
        reason: `${what} Adbatch downloaded (${result.product}, in batch “${result.batch}”)`,
      };
    }
    return { kind: 'export', reason: `a copy of an image Adbatch exported (${placed})` };
  };
}
