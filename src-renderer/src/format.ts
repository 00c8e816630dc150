// Credits are said alike in every front end: the renderer's screens import them from here with the rest.
export { credits } from '../../src-main/shared/words.ts';

export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const dateTime = (at: number) =>
  new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const fileName = (path: string) => path.split(/[\\/]/).pop() ?? path;

export const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** `a`, `a and b`, `a, b and c`. */
export function listed(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
