import { extname } from 'node:path';
import type { ExportKind } from '../../shared/export-recipe.ts';
import { loadSharp } from '../util/load-sharp.ts';

// What the plan needs to know of a source before anything is rendered: its upright size (for `{w}`,
// `{h}` and the checks) and its format (for the Original recipe's extension). Only the header is read.

export interface SourceInfo {
  width: number;
  height: number;
  /** The extension the source's format takes: jpg, png, webp, avif, tif, gif, or the file's own for a video. */
  ext: string;
}

const EXTENSIONS: Record<string, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  heif: 'avif',
  tiff: 'tif',
  gif: 'gif',
};

export async function readSourceInfo(file: string, kind: ExportKind): Promise<SourceInfo> {
  if (kind === 'video') return { width: 0, height: 0, ext: extname(file).slice(1).toLowerCase() || 'mp4' };
  const sharp = await loadSharp();
  const metadata = await sharp(file).metadata();
  const upright = metadata.autoOrient ?? { width: metadata.width, height: metadata.height };
  return {
    width: upright.width,
    height: upright.height,
    ext: EXTENSIONS[metadata.format] ?? 'png',
  };
}

/** The extension an output of this format takes. */
export function extensionOf(format: string, source: SourceInfo): string {
  switch (format) {
    case 'original':
      return source.ext;
    case 'jpeg':
      return 'jpg';
    default:
      return format;
  }
}
