// The one rule for names that every file system takes, the same on Windows, macOS and Linux, so that a folder
// or an export copied from one to another keeps every file under its name: the library's batch and product
// folders (library.ts) and every exported file and folder (export/plan.ts, zips.ts) are made safe here.
// What each one refuses:
// - Windows: `<>:"/\|?*` and control characters; a name ending in a dot or a space; the device names
//   CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and COM¹²³, LPT¹²³) with any extension ("NUL.txt" too), also when
//   spaces stand before the extension ("nul .txt").
// - All three: more than 255 bytes in a component (we count UTF-8 bytes, the strictest of the three).
// - macOS and Windows: two names that differ only in case are one file; macOS also takes two Unicode
//   spellings of "é" as one name, so names are normalised to NFC and compared case-folded.
// Where the library's and the export's rules once differed, the stricter is kept: every control character
// (C1 too, not only C0), the device names with any extension and COM0/LPT0, lengths in bytes, cuts between
// whole graphemes. Two choices stay the caller's, since each changes names already on disk: the character
// that stands for a refused one (`_`, the export's; `-`, the library's), and a shorter cap in UTF-16 units
// (the library's 80, which keeps <library>/<batch>/<product>/<file> within Windows' 260-character paths).

export const MAX_COMPONENT_BYTES = 255;

/** The caller's spelling of a safe name: see above. */
export interface NameStyle {
  /** What stands for a character no file system takes: `_` unless said. */
  replacement?: string;
  /** At most this many UTF-16 code units (what Windows counts in a path), besides the 255 bytes. */
  maxLength?: number;
  /**
   * Where a name too long is cut: its end (the library's, which names stay as they are on disk), or its
   * middle, so that the end that tells similar names apart stays (the export's: `…-02-feed.jpg`).
   */
  cut?: 'end' | 'middle';
}

// And the bidirectional overrides and isolates (Trojan Source): "photo\u202Egpj.exe" shows as "photoexe.jpg"
// in Finder and Explorer, a file that is not what its name seems.
const FORBIDDEN = /[<>:"/\\|?*\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
/** An extension: a dot and 1 to 10 letters or digits at the end. */
const EXTENSION = /\.[\p{L}\p{N}]{1,10}$/u;
/** What a name made safe by a prefix (a hidden name, a device name) or left empty gets. */
const MARK = '_';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The longest start of `text` within `maxBytes` of UTF-8 (and `maxLength` UTF-16 units), never splitting a
 * character (nor an accented letter or emoji).
 */
export function truncateToBytes(
  text: string,
  maxBytes: number,
  maxLength = Number.POSITIVE_INFINITY,
): string {
  if (byteLength(text) <= maxBytes && text.length <= maxLength) return text;
  let kept = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = byteLength(segment);
    if (bytes + size > maxBytes || kept.length + segment.length > maxLength) break;
    kept += segment;
    bytes += size;
  }
  return kept;
}

const ELLIPSIS = '…';

/**
 * `text` within `maxBytes` of UTF-8 (and `maxLength` UTF-16 units) with its middle replaced by `…`: as much
 * of its start and of its end as fit, never splitting a character.
 */
export function cutMiddle(text: string, maxBytes: number, maxLength = Number.POSITIVE_INFINITY): string {
  if (byteLength(text) <= maxBytes && text.length <= maxLength) return text;
  const parts = [...graphemes.segment(text)].map(({ segment }) => segment);
  let bytes = byteLength(ELLIPSIS);
  let length = ELLIPSIS.length;
  let head = 0;
  let tail = parts.length;
  // Alternately a character of the end and one of the start, the end first: it tells names apart.
  for (let fromEnd = true; head < tail; fromEnd = !fromEnd) {
    const segment = parts[fromEnd ? tail - 1 : head]!;
    if (bytes + byteLength(segment) > maxBytes || length + segment.length > maxLength) break;
    bytes += byteLength(segment);
    length += segment.length;
    if (fromEnd) tail--;
    else head++;
  }
  return `${parts.slice(0, head).join('')}${ELLIPSIS}${parts.slice(tail).join('')}`;
}

/** A name split as `stem` + `extension` (with its dot; empty when there is none). */
export function splitExtension(name: string): { stem: string; extension: string } {
  const match = EXTENSION.exec(name);
  if (!match || match.index === 0) return { stem: name, extension: '' };
  return { stem: name.slice(0, match.index), extension: match[0] };
}

/**
 * One safe path component: NFC; forbidden and control characters as the replacement; no leading or trailing
 * spaces, no trailing dots; a leading dot (a hidden file) or a device name prefixed with `_`; at most 255
 * bytes (and the style's length), a file's extension kept; never empty (`_`).
 */
export function safeComponent(raw: string, kind: 'file' | 'folder', style: NameStyle = {}): string {
  const { replacement = '_', maxLength = Number.POSITIVE_INFINITY, cut = 'end' } = style;
  let name = raw
    .normalize('NFC')
    .replace(FORBIDDEN, replacement)
    .trim()
    .replace(/[. ]+$/, '');
  if (name.startsWith('.')) name = `${MARK}${name}`;
  const { stem, extension } = kind === 'file' ? splitExtension(name) : { stem: name, extension: '' };
  let safeStem = stem.replace(/[. ]+$/, '') || MARK;
  // Windows reads the part before the first dot (spaces trimmed) as the device: "CON.tar.gz", "nul .jpg".
  if (RESERVED.test(safeStem.split('.')[0]!.trimEnd())) safeStem = `${MARK}${safeStem}`;
  const bytesLeft = MAX_COMPONENT_BYTES - byteLength(extension);
  const lengthLeft = maxLength - extension.length;
  const shortened =
    cut === 'middle'
      ? cutMiddle(safeStem, bytesLeft, lengthLeft)
      : truncateToBytes(safeStem, bytesLeft, lengthLeft);
  safeStem = shortened.replace(/[. ]+$/, '') || MARK;
  return `${safeStem}${extension}`;
}

/** `name (2).jpg`: the suffix before the extension, the stem shortened so the whole stays within 255 bytes. */
export function withSuffix(fileName: string, count: number): string {
  if (count < 2) return fileName;
  const { stem, extension } = splitExtension(fileName);
  const suffix = ` (${count})`;
  const room = MAX_COMPONENT_BYTES - byteLength(extension) - byteLength(suffix);
  return `${truncateToBytes(stem, room)}${suffix}${extension}`;
}

/** The key under which two paths are one file on a case-insensitive, normalisation-insensitive disk. */
export function foldKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/**
 * The paths of one run, each distinct from every other one as macOS and Windows compare them. A path
 * whose folded key is taken gets ` (2)`, ` (3)`… on its file name; a folder keeps the spelling it was
 * first claimed with, so `Cap/a.jpg` and `cap/b.jpg` land in one folder everywhere.
 */
export class NameClaims {
  private readonly owners = new Map<string, string>();
  private readonly folders = new Map<string, string>();

  /** Whether `path` is free, or already this owner's. */
  isFreeFor(path: string, owner: string): boolean {
    const current = this.owners.get(foldKey(path));
    return current === undefined || current === owner;
  }

  /** Claims `path` for `owner` if it is free; says whether it now is the owner's. */
  tryClaim(path: string, owner: string): boolean {
    if (!this.isFreeFor(path, owner)) return false;
    this.owners.set(foldKey(path), owner);
    return true;
  }

  /** The first free spelling of a safe relative path for `owner`: the path itself, then with a suffix. */
  claim(path: string, owner: string): string {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : this.canonicalFolder(path.slice(0, slash));
    const file = slash < 0 ? path : path.slice(slash + 1);
    for (let count = 1; ; count++) {
      const candidate = `${folder ? `${folder}/` : ''}${withSuffix(file, count)}`;
      if (this.tryClaim(candidate, owner)) return candidate;
    }
  }

  private canonicalFolder(folder: string): string {
    const parts = folder.split('/');
    const canonical: string[] = [];
    for (let index = 0; index < parts.length; index++) {
      const spelled = [...canonical, parts[index]!].join('/');
      const key = foldKey(spelled);
      const known = this.folders.get(key);
      if (known === undefined) this.folders.set(key, spelled);
      canonical.push((known ?? spelled).split('/').at(-1)!);
    }
    return canonical.join('/');
  }
}
