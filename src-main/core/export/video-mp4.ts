import { type FileHandle, open } from 'node:fs/promises';
import { basename } from 'node:path';
import { megabytes } from '../../shared/byte-words.ts';

// What a video's pre-flight needs, read from an MP4 or QuickTime file's boxes (ISO/IEC 14496-12): the
// brand, the duration, and each track's kind, codec, size and frame rate. Only box headers and the few
// small boxes that hold these are read, wherever moov lies (at the front after `+faststart`, or after
// hundreds of MB of mdat at the end): the media data is skipped by seeking past it, never read.

export interface VideoTrackFacts {
  /** The handler: 'vide', 'soun', 'text'… */
  kind: string;
  /** The first sample entry's four-character code: avc1, avc3, hvc1, hev1, mp4a… */
  codec: string;
  /** The display size (tkhd), turned upright when the track is rotated a quarter turn; 0 for sound. */
  width: number;
  height: number;
  /** Seconds, from the track's media header. */
  durationSeconds: number;
  /** Samples per second over the track (a video's mean frame rate); null when it cannot be told. */
  sampleRate: number | null;
}

export interface VideoFacts {
  /** The major brand of ftyp ('isom', 'mp42', 'qt  '…); null for an old QuickTime file without ftyp. */
  brand: string | null;
  compatibleBrands: string[];
  /** Seconds, from the movie header. */
  durationSeconds: number;
  /** moov comes before the media data: a player (or an upload) can start before the whole file is there. */
  moovFirst: boolean;
  tracks: VideoTrackFacts[];
  /** The first video track, the one the checks are about. */
  video: VideoTrackFacts | null;
  /** The first sound track. */
  audio: VideoTrackFacts | null;
}

/** A file that is not an MP4 or MOV, or one cut short: the message says which, in words. */
export class VideoFileError extends Error {
  override name = 'VideoFileError';
}

interface Box {
  type: string;
  /** Where the box starts in the file. */
  start: number;
  /** Where its payload starts (after the 8- or 16-byte header). */
  payload: number;
  /** Where it ends. */
  end: number;
}

/** Top-level boxes a QuickTime file without ftyp may start with. */
const QUICKTIME_FIRST = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
/** What a file that is not an MP4 is, from its first bytes, to say so in words. */
const SIGNATURES: Array<[string, (head: Buffer) => boolean]> = [
  ['a JPEG image', (head) => head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))],
  ['a PNG image', (head) => head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))],
  ['a GIF image', (head) => head.toString('latin1', 0, 4) === 'GIF8'],
  ['a WebM or Matroska video', (head) => head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))],
  ['a RIFF file (AVI, WAV or WebP)', (head) => head.toString('latin1', 0, 4) === 'RIFF'],
  [
    'an HTML page (an error page saved in its place?)',
    (head) => /^\s*<(!doctype|html)/i.test(head.toString('latin1')),
  ],
];
/** The most of a box's payload read into memory: the boxes read here are a few hundred bytes. */
const SMALL_BOX = 64 * 1024;
/** stts of a variable frame rate video can be long; past this the frame rate is not told. */
const STTS_MAX = 4 * 1024 * 1024;

function fourCc(bytes: Buffer, offset: number): string {
  return bytes.toString('latin1', offset, offset + 4);
}

function printable(type: string): boolean {
  return /^[\x20-\x7e]{4}$/.test(type);
}

class BoxReader {
  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    private readonly name: string,
  ) {}

  async read(position: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  }

  cutShort(detail: string): VideoFileError {
    return new VideoFileError(
      `${this.name} is cut short: ${detail} (the file has ${megabytes(this.size)}). It was not copied in full, or its render did not finish.`,
    );
  }

  /** The box starting at `start`, which must end by `limit` (its parent's end, or the file's). */
  async boxAt(start: number, limit: number, parent: string): Promise<Box> {
    const header = await this.read(start, 16);
    if (header.length < 8)
      throw this.cutShort(`a box header in ${parent} stops at byte ${start + header.length}`);
    const size32 = header.readUInt32BE(0);
    const type = fourCc(header, 4);
    let payload = start + 8;
    let end: number;
    if (size32 === 1) {
      if (header.length < 16) throw this.cutShort(`the '${type}' box's 64-bit size is missing`);
      end = start + Number(header.readBigUInt64BE(8));
      payload = start + 16;
    } else if (size32 === 0) {
      // "The box extends to the end of the file": only the last box may say so.
      end = limit;
    } else end = start + size32;
    if (end < payload) {
      throw new VideoFileError(
        `${this.name} is damaged: its '${type}' box at byte ${start} has a size of ${size32}.`,
      );
    }
    if (end > limit) {
      if (limit === this.size) {
        throw this.cutShort(`its '${type}' box should end at ${megabytes(end)}`);
      }
      throw new VideoFileError(
        `${this.name} is damaged: its '${type}' box runs past the end of the '${parent}' box that holds it.`,
      );
    }
    return { type, start, payload, end };
  }

  /** The boxes inside `parent`'s payload, from `from`. */
  async children(parent: Box, from = parent.payload): Promise<Box[]> {
    const boxes: Box[] = [];
    for (let at = from; at + 8 <= parent.end; ) {
      const box = await this.boxAt(at, parent.end, parent.type);
      boxes.push(box);
      at = box.end;
    }
    return boxes;
  }

  async payloadOf(box: Box, max = SMALL_BOX): Promise<Buffer> {
    const length = Math.min(box.end - box.payload, max);
    return this.read(box.payload, length);
  }
}

function need(bytes: Buffer, length: number, what: string, name: string): void {
  if (bytes.length < length) throw new VideoFileError(`${name} is damaged: its '${what}' box is too short.`);
}

/** A full box's version: its first byte. */
function version(bytes: Buffer): number {
  return bytes.readUInt8(0);
}

/**
 * A movie's (`mvhd`) or a track's media (`mdhd`) timescale and duration: both full boxes lay them out alike,
 * after a creation and a modification time of 32 bits (version 0) or 64 (version 1).
 */
function timescaleAndDuration(
  bytes: Buffer,
  box: 'mvhd' | 'mdhd',
  name: string,
): { timescale: number; duration: number } {
  if (version(bytes) === 1) {
    need(bytes, 32, box, name);
    return { timescale: bytes.readUInt32BE(20), duration: Number(bytes.readBigUInt64BE(24)) };
  }
  need(bytes, 20, box, name);
  return { timescale: bytes.readUInt32BE(12), duration: bytes.readUInt32BE(16) };
}

/** tkhd's display width and height (16.16 fixed point), swapped when its matrix turns it a quarter. */
function trackHeader(bytes: Buffer, name: string): { width: number; height: number } {
  const matrix = version(bytes) === 1 ? 52 : 40;
  need(bytes, matrix + 44, 'tkhd', name);
  const a = bytes.readInt32BE(matrix);
  const d = bytes.readInt32BE(matrix + 16);
  const width = Math.round(bytes.readUInt32BE(matrix + 36) / 65536);
  const height = Math.round(bytes.readUInt32BE(matrix + 40) / 65536);
  const quarterTurn = a === 0 && d === 0;
  return quarterTurn ? { width: height, height: width } : { width, height };
}

/** The first sample entry's code, and the coded size a visual entry carries. */
function sampleDescription(bytes: Buffer, name: string): { codec: string; width: number; height: number } {
  need(bytes, 16, 'stsd', name);
  if (bytes.readUInt32BE(4) === 0)
    throw new VideoFileError(`${name} is damaged: a track describes no samples.`);
  const codec = fourCc(bytes, 12);
  // A visual sample entry: 8 header bytes, 8 of reference, 16 reserved, then width and height.
  const visual = bytes.length >= 8 + 36;
  return {
    codec,
    width: visual ? bytes.readUInt16BE(8 + 32) : 0,
    height: visual ? bytes.readUInt16BE(8 + 34) : 0,
  };
}

/** The number of samples stts counts, or null when the table is cut off at STTS_MAX. */
function sampleCount(bytes: Buffer, length: number): number | null {
  if (bytes.length < 8 || bytes.length < length) return null;
  const entries = bytes.readUInt32BE(4);
  if (8 + entries * 8 > bytes.length) return null;
  let count = 0;
  for (let entry = 0; entry < entries; entry++) count += bytes.readUInt32BE(8 + entry * 8);
  return count;
}

async function readTrack(reader: BoxReader, trak: Box, name: string): Promise<VideoTrackFacts | null> {
  const find = (boxes: Box[], type: string) => boxes.find((box) => box.type === type);
  const inTrak = await reader.children(trak);
  const tkhd = find(inTrak, 'tkhd');
  const mdia = find(inTrak, 'mdia');
  if (!tkhd || !mdia) return null;
  const inMdia = await reader.children(mdia);
  const mdhd = find(inMdia, 'mdhd');
  const hdlr = find(inMdia, 'hdlr');
  const minf = find(inMdia, 'minf');
  if (!mdhd || !hdlr) return null;
  const handler = await reader.payloadOf(hdlr);
  need(handler, 12, 'hdlr', name);
  const kind = fourCc(handler, 8);
  const stbl = minf && find(await reader.children(minf), 'stbl');
  const inStbl = stbl ? await reader.children(stbl) : [];
  const stsd = find(inStbl, 'stsd');
  const stts = find(inStbl, 'stts');
  const description = stsd ? sampleDescription(await reader.payloadOf(stsd), name) : null;
  const media = timescaleAndDuration(await reader.payloadOf(mdhd), 'mdhd', name);
  const durationSeconds = media.timescale > 0 ? media.duration / media.timescale : 0;
  const samples = stts
    ? sampleCount(await reader.payloadOf(stts, STTS_MAX), Math.min(stts.end - stts.payload, STTS_MAX))
    : null;
  const display = trackHeader(await reader.payloadOf(tkhd), name);
  const sized = display.width > 0 && display.height > 0;
  return {
    kind,
    codec: description?.codec ?? '',
    width: kind === 'vide' ? (sized ? display.width : (description?.width ?? 0)) : 0,
    height: kind === 'vide' ? (sized ? display.height : (description?.height ?? 0)) : 0,
    durationSeconds,
    sampleRate: samples !== null && durationSeconds > 0 ? samples / durationSeconds : null,
  };
}

/** The facts of an MP4 or MOV file, or a VideoFileError that says why they cannot be read. */
export async function readVideoFacts(file: string): Promise<VideoFacts> {
  const name = basename(file);
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const reader = new BoxReader(handle, size, name);
    if (size === 0) throw new VideoFileError(`${name} is empty.`);
    const head = await reader.read(0, 16);
    const firstType = head.length >= 8 ? fourCc(head, 4) : '';
    if (firstType !== 'ftyp' && !QUICKTIME_FIRST.has(firstType)) {
      const known = SIGNATURES.find(([, test]) => test(head));
      const seen = known
        ? `it is ${known[0]}`
        : `it starts with bytes ${head.subarray(0, 8).toString('hex')}, not an 'ftyp' box`;
      throw new VideoFileError(`${name} is not an MP4 or MOV file: ${seen}.`);
    }
    let brand: string | null = null;
    let compatibleBrands: string[] = [];
    let moov: Box | null = null;
    let mdatSeen = false;
    let moovFirst = false;
    // Every top-level header is read, past moov too: a file cut short in its media data (after a moov at
    // the front) says so by a box that ends past the end of the file.
    for (let at = 0; at + 8 <= size; ) {
      const box = await reader.boxAt(at, size, 'file');
      if (box.type === 'ftyp') {
        const ftyp = await reader.payloadOf(box);
        need(ftyp, 8, 'ftyp', name);
        brand = fourCc(ftyp, 0);
        for (let offset = 8; offset + 4 <= ftyp.length; offset += 4)
          compatibleBrands.push(fourCc(ftyp, offset));
      } else if (box.type === 'moov' && !moov) {
        moov = box;
        moovFirst = !mdatSeen;
      } else if (box.type === 'mdat') mdatSeen = true;
      else if (!printable(box.type)) {
        throw new VideoFileError(`${name} is damaged: after byte ${at} comes no box a video file holds.`);
      }
      at = box.end;
    }
    if (!moov) {
      throw reader.cutShort(
        "it has no 'moov' box, the index of its frames, which a render writes last unless it moves it to the front",
      );
    }
    const inMoov = await reader.children(moov);
    const mvhd = inMoov.find((box) => box.type === 'mvhd');
    if (!mvhd) throw new VideoFileError(`${name} is damaged: its 'moov' box has no movie header.`);
    const movie = timescaleAndDuration(await reader.payloadOf(mvhd), 'mvhd', name);
    const tracks: VideoTrackFacts[] = [];
    for (const trak of inMoov.filter((box) => box.type === 'trak')) {
      const track = await readTrack(reader, trak, name);
      if (track) tracks.push(track);
    }
    compatibleBrands = [...new Set(compatibleBrands)];
    return {
      brand,
      compatibleBrands,
      durationSeconds: movie.timescale > 0 ? movie.duration / movie.timescale : 0,
      moovFirst,
      tracks,
      video: tracks.find((track) => track.kind === 'vide') ?? null,
      audio: tracks.find((track) => track.kind === 'soun') ?? null,
    };
  } finally {
    await handle.close();
  }
}
