import { describe, expect, it } from 'vitest';
import { lastPathPart, namingInput } from '../../../src-main/shared/batch-name.ts';
import type { ScanView } from '../../../src-main/shared/models.ts';

const photo = (file: string) => ({
  file,
  width: 600,
  height: 600,
  thumbnailUrl: null,
  converted: null,
  hash: null,
  url: null,
  realPath: null,
});
const product = (name: string, ...files: string[]) => ({
  name,
  path: name,
  leftOut: false,
  photos: files.map(photo),
});
const scanOf = (view: Partial<Pick<ScanView, 'products' | 'problems' | 'skippedFiles'>>) => ({
  products: [],
  problems: [],
  skippedFiles: [],
  ...view,
});

describe('namingInput', () => {
  it('passes over a file the scan turned away for the first input holding a photo it shoots', () => {
    const scan = scanOf({
      products: [product('cap', '/drop/photos/cap/front.jpg')],
      problems: [
        { file: '/drop/README.md', reason: 'not an image', severity: 'warning', code: 'not_an_image' },
      ],
    });
    expect(namingInput(['/drop/README.md', '/drop/photos'], scan)).toBe('/drop/photos');
    // A folder whose name begins as another's does not hold its photos.
    expect(namingInput(['/drop/photo', '/drop/photos/'], scan)).toBe('/drop/photos/');
  });

  it("names a catalog's batch after the catalog (its photos are links), and Windows paths alike", () => {
    const catalog = scanOf({
      products: [product('Mug', 'https://cdn.example.com/mug.jpg')],
      skippedFiles: [{ file: 'C:\\drop\\notes.txt', reason: 'a text file' }],
    });
    expect(namingInput(['C:\\drop\\notes.txt', 'C:\\drop\\products.csv'], catalog)).toBe(
      'C:\\drop\\products.csv',
    );
    const windows = scanOf({ products: [product('hat', 'C:\\drop\\hat\\1.jpg')] });
    expect(namingInput(['C:\\drop\\other', 'C:\\drop\\hat'], windows)).toBe('C:\\drop\\hat');
  });

  it('falls back to the first input when nothing tells them apart', () => {
    expect(namingInput(['/a', '/b'], scanOf({}))).toBe('/a');
    expect(namingInput([], scanOf({}))).toBeUndefined();
  });
});

describe('lastPathPart', () => {
  it('is the last part, either separator, a trailing one ignored', () => {
    expect(lastPathPart('/photos/flat/')).toBe('flat');
    expect(lastPathPart('C:\\drop\\hat')).toBe('hat');
  });
});
