import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniff } from '../../../../src-main/core/ingest/sniff.ts';
import { bmp, heicLike, pngHeaderOnly } from '../../../support/bad-inputs.ts';

const image = () => sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } });

describe('sniff', () => {
  it('names each image format by its first bytes', async () => {
    expect(sniff(await image().jpeg().toBuffer())).toBe('jpeg');
    expect(sniff(await image().png().toBuffer())).toBe('png');
    expect(sniff(await image().webp().toBuffer())).toBe('webp');
    expect(sniff(await image().gif().toBuffer())).toBe('gif');
    expect(sniff(await image().tiff().toBuffer())).toBe('tiff');
    expect(sniff(await image().avif().toBuffer())).toBe('avif');
    expect(sniff(heicLike())).toBe('heif');
    expect(sniff(bmp())).toBe('bmp');
    expect(sniff(pngHeaderOnly(10, 10))).toBe('png');
  });

  it('tells documents, drawings and text from images', () => {
    expect(sniff(Buffer.from('%PDF-1.4\n'))).toBe('pdf');
    expect(sniff(Buffer.from('8BPS\x00\x01'))).toBe('psd');
    expect(sniff(Buffer.from('\uFEFF  <?xml version="1.0"?>\n<!-- logo -->\n<svg viewBox="0 0 1 1">'))).toBe(
      'svg',
    );
    expect(sniff(Buffer.from('<html><body>not found</body></html>'))).toBe('text');
    expect(sniff(Buffer.from('Handle,Title\nmug,Mug\n'))).toBe('text');
    expect(sniff(Buffer.alloc(0))).toBe('empty');
    expect(sniff(Buffer.from([0x00, 0x01, 0x02, 0xfe, 0x00, 0x99]))).toBe('unknown');
  });
});
