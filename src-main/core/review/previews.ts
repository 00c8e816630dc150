import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Logger } from '../app/context.ts';
import { MAX_PIXELS } from '../ingest/limits.ts';
import { loadSharp } from '../util/load-sharp.ts';
import { sweepStaleParts } from '../util/stale-parts.ts';
import { writeAtomically } from '../util/write-atomically.ts';
import { extractPosterFrame } from './video-frame.ts';

// Review shows hundreds of results at once and one at a time on a whole screen; neither should decode a 4K
// original. So every downloaded shot gets two previews, made here by sharp: a grid size and a screen size.
// They live in the data folder's cache, keyed by the result's sha256 (as ingest keys its thumbnails by the
// photo's), so a preview always shows the bytes it was made from and is never stale; one that is missing
// (a cache cleared, a failure) is simply made again. A video gets the same two, of its poster frame
// (video-frame.ts): what the grid and the batch page show for it, and the loupe before it plays.
//
// JPEG rather than WebP: a 1600 px preview of a 2K original took 57 ms as JPEG and 310 ms as WebP on the
// development machine (sharp 0.35, quality 86), and that cost is paid per result on a download and on a
// rebuild; WebP's files are half the size, which buys little for files read from the local disk.

/** The long edge of a preview in the grid: a cell at 2x on a high-density screen. */
export const GRID_EDGE = 320;
/** The long edge of a preview in the loupe and compare: a laptop's screen, not a 4K original. */
export const SCREEN_EDGE = 1600;

export type PreviewSize = 'grid' | 'screen';
/** What a preview is made from: a shot's image, or a video's poster frame. */
export type PreviewSource = 'image' | 'video';

const EDGES: Record<PreviewSize, number> = { grid: GRID_EDGE, screen: SCREEN_EDGE };
/** Each result's previews, in the order they are made. */
const SIZES = Object.keys(EDGES) as PreviewSize[];
/** Where a video's poster frame is taken to, for its two previews, and deleted after. */
const FRAMES = 'frames';
/** Guess: enough for a grid cell, and close to the original on a screen for checking text and logos. */
const QUALITY: Record<PreviewSize, number> = { grid: 78, screen: 86 };

/** Where previews live: the data folder's cache, beside the queue's database, not in the user's library. */
export function previewsDir(dataDir: string): string {
  return join(dataDir, 'cache', 'previews');
}

export function previewPath(dir: string, size: PreviewSize, sha256: string): string {
  return join(dir, size, sha256.slice(0, 2), `${sha256}.jpg`);
}

/**
 * A result's grid preview where it is on disk, else null: a video's poster frame for the batch page, which
 * shows a few videos and asks nothing to be made (Review does: `ResultPreviews.rebuild`).
 */
export function gridPreviewOnDisk(dataDir: string, sha256: string): string | null {
  const path = previewPath(previewsDir(dataDir), 'grid', sha256);
  return existsSync(path) ? path : null;
}

/** Makes one preview of an image: upright, within its edge (never enlarged), on white where transparent. */
export async function makePreview(original: string, target: string, size: PreviewSize): Promise<void> {
  const edge = EDGES[size];
  const sharp = await loadSharp();
  await writeAtomically(target, (part) =>
    // The original was verified when downloaded; a preview is only a view of it, so it is decoded leniently.
    sharp(original, { failOn: 'none', limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize(edge, edge, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: QUALITY[size] })
      .toFile(part),
  );
}

/**
 * The previews of downloaded results, made one at a time in the background (the machine's cores are the
 * download pump's and the window's too), each result's once however often it is asked for. Nothing here
 * ever rejects: a preview that cannot be made is logged, and whoever shows it falls back to the original.
 */
export class ResultPreviews {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly pending = new Map<string, Promise<boolean>>();
  /** Each fan-out folder's names as last read, with the folder's mtime then: read again once it changes. */
  private readonly listings = new Map<string, { mtimeMs: number; names: Set<string> }>();
  /** Results whose previews could not be made in this session: not tried on every look again. */
  private readonly failed = new Set<string>();
  private closed = false;
  /** Whether the cache was swept of stale `.part`s (before the first preview this process makes). */
  private swept = false;

  constructor(
    readonly dir: string,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  path(size: PreviewSize, sha256: string): string {
    // Concatenated, not joined: review:get builds 16,000 of these for a batch of 8,000 shots.
    return `${this.folder(size, sha256)}${sep}${sha256}.jpg`;
  }

  /**
   * A look at which results have both previews on disk, for one answer: `review:get` asks it about every
   * result of a batch, and 16,000 stats cost more than the rest of the answer. Each fan-out folder is
   * stat'ed once per look and read again only when its mtime moved (a preview added or deleted since), so a
   * preview deleted under the running app is noticed. (Guess: the cache is on a file system with sub-second
   * mtimes; on one with whole seconds, a deletion in the second of a listing is noticed at the next change.)
   */
  presence(): (sha256: string) => boolean {
    const seen = new Map<string, Set<string>>();
    const namesIn = (folder: string): Set<string> => {
      let names = seen.get(folder);
      if (names) return names;
      let mtimeMs: number;
      try {
        mtimeMs = statSync(folder).mtimeMs;
      } catch {
        mtimeMs = -1;
      }
      const listed = this.listings.get(folder);
      if (listed && listed.mtimeMs === mtimeMs) names = listed.names;
      else {
        names = new Set(mtimeMs < 0 ? [] : readdirSync(folder));
        this.listings.set(folder, { mtimeMs, names });
      }
      seen.set(folder, names);
      return names;
    };
    return (sha256) =>
      namesIn(this.folder('grid', sha256)).has(`${sha256}.jpg`) &&
      namesIn(this.folder('screen', sha256)).has(`${sha256}.jpg`);
  }

  private folder(size: PreviewSize, sha256: string): string {
    return `${this.dir}${sep}${size}${sep}${sha256.slice(0, 2)}`;
  }

  /**
   * Makes whatever is missing of this result's previews, after those asked for before; true once both
   * exist, false if they could not be made (logged).
   */
  ensure(original: string, sha256: string, source: PreviewSource = 'image'): Promise<boolean> {
    // A fresh download is worth a new try, whatever happened to the same bytes before.
    this.failed.delete(sha256);
    return this.queue(original, sha256, source);
  }

  /**
   * A preview found missing, made again unless it already failed in this session (its original gone, say:
   * logging that on every look at the batch would say nothing new).
   */
  rebuild(original: string, sha256: string, source: PreviewSource = 'image'): Promise<boolean> {
    return this.failed.has(sha256) ? Promise.resolve(false) : this.queue(original, sha256, source);
  }

  private queue(original: string, sha256: string, source: PreviewSource): Promise<boolean> {
    const already = this.pending.get(sha256);
    if (already) return already;
    // What a killed write left (a preview's or a poster frame's `.part`) goes before the first preview the
    // process makes: not when the core starts, which every CLI command does, most of them making none.
    if (!this.swept) {
      this.swept = true;
      this.tail = this.tail.then(() => sweepStaleParts(this.dir, [...SIZES, FRAMES]));
    }
    const made = this.tail.then(() => this.make(original, sha256, source));
    this.pending.set(sha256, made);
    this.tail = made.finally(() => this.pending.delete(sha256));
    return made;
  }

  /** Resolves once every preview asked for so far is made or given up on. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await this.tail;
  }

  /** Makes no more previews; resolves once the one being made is written. What is left is made on demand. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  private async make(original: string, sha256: string, source: PreviewSource): Promise<boolean> {
    if (this.closed) return false;
    // A video's frame, taken once for both sizes and deleted after: the previews are what is kept.
    const frame = source === 'video' ? `${this.dir}${sep}${FRAMES}${sep}${sha256}.png` : null;
    try {
      for (const size of SIZES) {
        const target = this.path(size, sha256);
        if (existsSync(target)) continue;
        if (frame && !existsSync(frame))
          await writeAtomically(frame, (part) => extractPosterFrame(original, part));
        await makePreview(frame ?? original, target, size);
        // Read the folder again at the next look even if its mtime did not move: a file system's clock
        // ticks in milliseconds at best, and a listing taken in the tick of this write would miss it.
        this.listings.delete(this.folder(size, sha256));
      }
      return true;
    } catch (error) {
      this.failed.add(sha256);
      this.log.warn(`No preview of ${original}: ${(error as Error).message}`);
      return false;
    } finally {
      if (frame) await rm(frame, { force: true });
    }
  }
}
