import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

// The sRGB profile put into a JPEG or PNG after it is encoded. The pixels are sRGB already (the decode
// converts them); sharp's `withIccProfile('srgb')` would run them through a colour transform again only
// to attach the profile, which took as long as the encode itself (80 ms for a 2K JPEG). So the profile
// is written as the format stores one: a JPEG APP2 `ICC_PROFILE` segment, a PNG `iCCP` chunk. WebP and
// AVIF keep sharp's way (render.ts).

let profile: Promise<Buffer> | null = null;

/** sharp's own sRGB profile (the one `withIccProfile('srgb')` writes), read once. */
export function srgbProfile(): Promise<Buffer> {
  profile ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } })
    .withIccProfile('srgb')
    .png()
    .toBuffer()
    .then(async (png) => (await sharp(png).metadata()).icc!);
  return profile;
}

const ICC_SIGNATURE = Buffer.from('ICC_PROFILE\0', 'latin1');
/** What one APP2 segment holds after its length, signature and sequence bytes. */
const MAX_JPEG_CHUNK = 0xffff - 2 - ICC_SIGNATURE.length - 2;

/** The JPEG with the profile in APP2 segments, placed after its JFIF APP0 (or right after SOI). */
export function embedIccInJpeg(jpeg: Buffer, icc: Buffer): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + jpeg.readUInt16BE(4);
  const count = Math.ceil(icc.length / MAX_JPEG_CHUNK);
  const segments: Buffer[] = [];
  for (let index = 0; index < count; index++) {
    const chunk = icc.subarray(index * MAX_JPEG_CHUNK, (index + 1) * MAX_JPEG_CHUNK);
    const header = Buffer.alloc(4);
    header.writeUInt16BE(0xffe2, 0);
    header.writeUInt16BE(2 + ICC_SIGNATURE.length + 2 + chunk.length, 2);
    segments.push(header, ICC_SIGNATURE, Buffer.from([index + 1, count]), chunk);
  }
  return Buffer.concat([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)]);
}

/** The PNG with an `iCCP` chunk right after IHDR (it must precede PLTE and IDAT). */
export function embedIccInPng(png: Buffer, icc: Buffer): Buffer {
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  const afterHeader = 8 + 8 + png.readUInt32BE(8) + 4;
  const type = Buffer.from('iCCP', 'latin1');
  const data = Buffer.concat([Buffer.from('sRGB\0\0', 'latin1'), deflateSync(icc)]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  return Buffer.concat([png.subarray(0, afterHeader), length, type, data, crc, png.subarray(afterHeader)]);
}
