import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';

// Image files of every kind ingest must tell apart, made on the spot with sharp (or by hand where sharp
// would refuse to write them): the good, the convertible and the bad.

/** A photo-like picture: a gradient with a block, so every file of a given size and seed differs. */
export function picture(width: number, height: number, seed = 0): Sharp {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const inBlock = x > width / 3 && x < (2 * width) / 3 && y > height / 3 && y < (2 * height) / 3;
      raw[at] = inBlock ? (seed * 53) % 256 : (x * 255) / width;
      raw[at + 1] = inBlock ? (seed * 97) % 256 : (y * 255) / height;
      raw[at + 2] = (seed * 31 + 90) % 256;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

export const jpeg = (width = 800, height = 600, seed = 0) => picture(width, height, seed).jpeg().toBuffer();

/** A PNG whose header claims these dimensions, with almost no pixel data: what a decompression bomb looks like. */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A HEIC container (HEVC brands) as a phone writes it, with a body this sharp build cannot decode. */
export function heicLike(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypheic', 'latin1'),
    Buffer.from([0, 0, 0, 0]),
    Buffer.from('mif1heic', 'latin1'),
  ]);
  return Buffer.concat([ftyp, Buffer.alloc(2048, 0x11)]);
}

/** A 300 x 300 24-bit BMP (header only matters: it is turned away by its signature). */
export function bmp(): Buffer {
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + 300 * 300 * 3, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(300, 18);
  header.writeInt32LE(300, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  return Buffer.concat([header, Buffer.alloc(300 * 300 * 3, 0x80)]);
}

export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all([1, 2, 3].map((seed) => picture(300, 300, seed).png().toBuffer()));
  return sharp(frames, { join: { animated: true } })
    .gif()
    .toBuffer();
}
