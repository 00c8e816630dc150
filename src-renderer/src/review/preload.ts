import { useEffect } from 'react';

// The loupe's neighbours, fetched and decoded before they are asked for, and then shown as they are: the
// preloaded element itself goes on screen (`imageFor`), rather than a new `src` on the element already there.
// A new `src` fetches the file again where the response may not be reused (the harness serves files with
// `no-store`, and Chromium reuses such an image only while the page is still loading) and decodes it again
// (11.5 ms p50 from the key to the image decoded on bench:review); the preloaded element has its pixels.

/** Images held: the next two, the previous one, the one on screen and a few just left behind, for a step back. */
const HELD = 8;
const held = new Map<string, HTMLImageElement>();

function remember(url: string, image: HTMLImageElement): void {
  held.delete(url);
  held.set(url, image);
  for (const oldest of held.keys()) {
    if (held.size <= HELD) break;
    held.delete(oldest);
  }
}

function load(url: string): HTMLImageElement {
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  // A failure shows when the element is on screen; here it only means nothing was gained.
  image.decode().catch(() => undefined);
  return image;
}

function preload(url: string): void {
  remember(url, held.get(url) ?? load(url));
}

/**
 * The element to show this image with: the preloaded one (fetched and decoded already) if there is one, else
 * a new one. An element is in one place at a time: it is given to the one view that shows the image.
 */
export function imageFor(url: string): HTMLImageElement {
  const image = held.get(url) ?? load(url);
  remember(url, image);
  return image;
}

/** Preloads these images (null: nothing to preload, as a video has no screen preview). */
export function usePreloaded(urls: ReadonlyArray<string | null | undefined>): void {
  const key = urls.filter(Boolean).join('\n');
  useEffect(() => {
    for (const url of key.split('\n')) if (url) preload(url);
  }, [key]);
}
