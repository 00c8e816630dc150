import { useEffect } from 'react';

// The loupe's neighbours, fetched and decoded before they are asked for, so the next result shows in the frame
// after the key instead of after a fetch and a 1600 px decode (issue 12: "loupe preloads its neighbours").
// The browser keeps an image it has loaded for the page's other elements of the same URL (its list of
// available images); holding the elements keeps their decoded pixels from being dropped at once.

/** Images held: the neighbours now and a few just left behind, for a step back. */
const HELD = 6;
const held = new Map<string, HTMLImageElement>();

function preload(url: string): void {
  const known = held.get(url);
  held.delete(url);
  if (known) {
    held.set(url, known);
    return;
  }
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  // A failure shows when the loupe itself asks for the image; here it only means nothing was gained.
  image.decode().catch(() => undefined);
  held.set(url, image);
  for (const oldest of held.keys()) {
    if (held.size <= HELD) break;
    held.delete(oldest);
  }
}

/** Preloads these images (null: nothing to preload, as a video has no screen preview). */
export function usePreloaded(urls: ReadonlyArray<string | null | undefined>): void {
  const key = urls.filter(Boolean).join('\n');
  useEffect(() => {
    for (const url of key.split('\n')) if (url) preload(url);
  }, [key]);
}
