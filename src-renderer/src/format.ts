// Credits are said alike in every front end: the renderer's screens import them from here with the rest.
/** A span as people say it ("40 s", "3 min", "1 h 5 min"), as the batch's ETA says it everywhere. */
export { credits, spanWords as duration } from '../../src-main/shared/words.ts';

export const dateTime = (at: number) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** A size as every front end says it ("1.5 MB", "40 MB"). */
export { megabytes } from '../../src-main/shared/byte-words.ts';

/** `a`, `a and b`, `a, b and c`. */
export function listed(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
