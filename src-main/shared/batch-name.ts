import type { ScanView } from './models.ts';

// What a new batch is called when no one typed a name: after the first input that gave it a product. A
// README or a price list dropped with the photo folders, turned away by the scan, names nothing. Pure, so
// the app's New batch screen and the CLI name alike.

/** The last part of a path, either separator: "flat" of "/photos/flat/". */
export function lastPathPart(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/**
 * The input (absolute, as the scan was given it) a new batch is named after: the first holding a photo
 * the batch shoots, else the first the scan did not turn away as a whole (a catalog, whose photos are
 * links), else the first.
 */
export function namingInput(
  inputs: readonly string[],
  scan: Pick<ScanView, 'products' | 'problems' | 'skippedFiles'>,
): string | undefined {
  const files = scan.products.flatMap((product) => product.photos.map((photo) => photo.file));
  const holdsPhoto = (input: string) => {
    const root = input.replace(/[\\/]+$/, '');
    return files.some((file) => file === root || file.startsWith(`${root}/`) || file.startsWith(`${root}\\`));
  };
  const turnedAway = new Set([
    ...scan.problems.map((problem) => problem.file),
    ...scan.skippedFiles.map((skipped) => skipped.file),
  ]);
  return inputs.find(holdsPhoto) ?? inputs.find((input) => !turnedAway.has(input)) ?? inputs[0];
}
