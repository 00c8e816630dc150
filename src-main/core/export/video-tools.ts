import { createRequire } from 'node:module';

// The ffmpeg and ffprobe that ship with Adbatch, never the designer's: @ffmpeg-installer/ffmpeg and
// @ffprobe-installer/ffprobe name the binary of this platform, which npm installed from the registry as an
// optional package of its own (@ffmpeg-installer/linux-x64…). A machine's own ffmpeg (Debian's
// /usr/bin/ffmpeg, Homebrew's) may lack libx264 or differ in version, so the export never looks for one.
//
// Packaged, the packages sit inside app.asar, which a child process cannot be started from:
// electron-builder unpacks them (asarUnpack in electron-builder.config.ts) to app.asar.unpacked, and the
// path the packages give (inside the archive, as Electron's fs shows it) is turned into that one.

export type VideoTool = 'ffmpeg' | 'ffprobe';

const PACKAGES: Record<VideoTool, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

export class VideoToolError extends Error {
  override name = 'VideoToolError';
}

/** A path inside app.asar as the same path in app.asar.unpacked, where a binary can be run from. */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

const requirePackage = createRequire(import.meta.url);
const found = new Map<VideoTool, string>();

/** The bundled binary's path, or a VideoToolError saying what is missing (the packages throw strings too). */
export function videoToolPath(tool: VideoTool): string {
  const known = found.get(tool);
  if (known) return known;
  let path: unknown;
  try {
    path = (requirePackage(PACKAGES[tool]) as { path?: unknown }).path;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new VideoToolError(
      `The ${tool} that ships with Adbatch is missing for ${process.platform}-${process.arch} (${reason}): reinstall Adbatch.`,
    );
  }
  if (typeof path !== 'string') throw new VideoToolError(`${PACKAGES[tool]} names no ${tool} binary.`);
  const unpacked = unpackedPath(path);
  found.set(tool, unpacked);
  return unpacked;
}
