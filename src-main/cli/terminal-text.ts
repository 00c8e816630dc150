// What the CLI prints is read by a terminal, and much of it came from outside: folder and file names, a
// catalog's titles and URLs, the service's own messages. A name holding a control sequence would act on the
// designer's terminal as it was printed: ESC [2J clears the screen, OSC 52 writes the clipboard, OSC 0 sets
// the window's title, a carriage return prints over what came before on the line, a right-to-left override
// shows a name backwards. So every string the CLI writes to stdout and stderr is made printable in one place
// (as git quotes such names): each of those characters is shown as its `\uXXXX` escape, which keeps `--json`
// output the very same JSON (a JSON string may hold that escape for the character itself). Line feeds,
// tabs and the CR LF that ends a CSV line stay as they are. The CLI's own controls (the progress line
// redrawn in place) go through `writeControls`, around the wrapper. A name printed in a table or a list
// goes through `oneLine` as well, so that its own line feed cannot print a line of the CLI's (a total).

/**
 * C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional overrides and isolates; a
 * carriage return only alone, since CSV printed to stdout ends its lines with CR LF (RFC 4180).
 */
const UNPRINTABLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its whole job.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

/** The text with every character that would act on a terminal shown as its `\uXXXX` escape instead. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

type Write = NodeJS.WriteStream['write'];
const rawWrites = new WeakMap<NodeJS.WriteStream, Write>();

/** From now on, every string written to the stream is made printable first (bytes pass as they are). */
export function keepPrintable(stream: NodeJS.WriteStream): void {
  if (rawWrites.has(stream)) return;
  const raw = stream.write.bind(stream) as Write;
  rawWrites.set(stream, raw);
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    (raw as (chunk: unknown, ...rest: unknown[]) => boolean)(
      typeof chunk === 'string' ? printable(chunk) : chunk,
      ...rest,
    )) as Write;
}

/** Writes the CLI's own terminal controls (a line redrawn in place), which keepPrintable would show as text. */
export function writeControls(stream: NodeJS.WriteStream, text: string): void {
  const raw = rawWrites.get(stream);
  if (raw) raw(text);
  else stream.write(text);
}

/**
 * A name from outside (a folder's, a catalog's title) as one line of a table or a list: its line feeds and
 * tabs shown as escapes too, so that a folder named "hat\nTotal  0" cannot print a line of its own (a
 * quote's total that is not the total). `--json` output is exact without it.
 */
export function oneLine(name: string): string {
  return printable(name).replace(
    /[\n\t]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
