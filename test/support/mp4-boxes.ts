// Real MP4 files rearranged box by box, for the video pre-flight's tests: moov moved after the media data
// (as an encoder writes it without +faststart), the media data given a 64-bit size, and the chunk offsets
// (stco, co64) moved with the bytes they point at, so a player still plays the result (the tests check that
// with ffprobe, which does not share our reader).

export interface TopBox {
  type: string;
  bytes: Buffer;
}

export function topLevelBoxes(file: Buffer): TopBox[] {
  const boxes: TopBox[] = [];
  for (let at = 0; at < file.length; ) {
    const size32 = file.readUInt32BE(at);
    const size =
      size32 === 1 ? Number(file.readBigUInt64BE(at + 8)) : size32 === 0 ? file.length - at : size32;
    boxes.push({ type: file.toString('latin1', at + 4, at + 8), bytes: file.subarray(at, at + size) });
    at += size;
  }
  return boxes;
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

/** A copy of moov with every chunk offset moved by `shift` bytes. */
export function shiftChunkOffsets(moov: Buffer, shift: number): Buffer {
  const copy = Buffer.from(moov);
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end; ) {
      const size = copy.readUInt32BE(at);
      const type = copy.toString('latin1', at + 4, at + 8);
      if (CONTAINERS.has(type)) walk(at + 8, at + size);
      else if (type === 'stco' || type === 'co64') {
        const entries = copy.readUInt32BE(at + 12);
        for (let entry = 0; entry < entries; entry++) {
          if (type === 'stco') {
            const offset = at + 16 + entry * 4;
            copy.writeUInt32BE(copy.readUInt32BE(offset) + shift, offset);
          } else {
            const offset = at + 16 + entry * 8;
            copy.writeBigUInt64BE(copy.readBigUInt64BE(offset) + BigInt(shift), offset);
          }
        }
      }
      at += size;
    }
  };
  walk(8, copy.length);
  return copy;
}

/** A 16-byte header (size 1, then the 64-bit size) for a box of `payload` bytes. */
export function largeHeader(type: string, payload: number): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write(type, 4, 'latin1');
  header.writeBigUInt64BE(BigInt(payload + 16), 8);
  return header;
}

/**
 * The same movie with moov after the media data, and the media data's header 64-bit when asked: what an
 * encoder writes when it does not move moov to the front.
 */
export function moovLast(file: Buffer, options: { largeMdat?: boolean } = {}): Buffer {
  const boxes = topLevelBoxes(file);
  const moov = boxes.find((box) => box.type === 'moov')!;
  const mdatIndex = boxes.findIndex((box) => box.type === 'mdat');
  const mdat = boxes[mdatIndex]!;
  const before = boxes.slice(0, mdatIndex).filter((box) => box.type !== 'moov');
  const mdatHeader = options.largeMdat
    ? largeHeader('mdat', mdat.bytes.length - 8)
    : mdat.bytes.subarray(0, 8);
  const oldDataStart = boxes.slice(0, mdatIndex).reduce((sum, box) => sum + box.bytes.length, 0) + 8;
  const newDataStart = before.reduce((sum, box) => sum + box.bytes.length, 0) + mdatHeader.length;
  return Buffer.concat([
    ...before.map((box) => box.bytes),
    mdatHeader,
    mdat.bytes.subarray(8),
    shiftChunkOffsets(moov.bytes, newDataStart - oldDataStart),
    ...boxes.slice(mdatIndex + 1).map((box) => box.bytes),
  ]);
}
