import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type NameValues,
  NUMBER_TOKENS,
  parseTemplate,
  renderFileName,
  renderFolders,
  TEXT_TOKENS,
  TemplateError,
} from '../../../src-main/core/export/names.ts';
import { MAX_COMPONENT_BYTES, safeComponent } from '../../../src-main/core/util/safe-names.ts';
import { check, hostileText } from '../../support/fuzz.ts';

// Issue 28 point 8: name templates and safe names driven by generated templates and values (a product's
// name is whatever a catalog or a folder says). A template is taken or refused with a TemplateError (in
// words), never another error; every name made is one component that stays in its folder on Windows,
// macOS and Linux: no separator, no `.` or `..`, no hidden name, no device name, within 255 bytes (and the
// library's 80 characters where it asks for them).

const FORBIDDEN = /[<>:"/\\|?*\p{Cc}]/u;
const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** What every safe component must be (safe-names.ts' rule, checked from outside). */
function staysInItsFolder(name: string, maxLength = Number.POSITIVE_INFINITY): boolean {
  const root = '/export';
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    !name.startsWith('.') &&
    !/[. ]$/.test(name) &&
    !FORBIDDEN.test(name) &&
    !DEVICE.test(name.split('.')[0]!.trimEnd()) &&
    Buffer.byteLength(name, 'utf8') <= MAX_COMPONENT_BYTES &&
    name.length <= maxLength &&
    name === name.normalize('NFC') &&
    posix.dirname(posix.join(root, name)) === root
  );
}

const values: fc.Arbitrary<NameValues> = fc.record({
  ...Object.fromEntries(TEXT_TOKENS.map((token) => [token, hostileText(token === 'product' ? 300 : 40)])),
  ...Object.fromEntries(NUMBER_TOKENS.map((token) => [token, fc.nat({ max: 100_000 })])),
} as Record<keyof NameValues, fc.Arbitrary<string | number>>) as fc.Arbitrary<NameValues>;

/** A template as a designer might write one: tokens (padded or not) among bits of hostile text. */
const template = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TEXT_TOKENS.map((token) => `{${token}}`)),
      fc.constantFrom(...NUMBER_TOKENS.map((token) => `{${token}:03}`)),
      hostileText(8),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

describe('names, property-tested', () => {
  it('takes or refuses any template in words, never with another error', () => {
    check(
      fc.property(fc.oneof(template, hostileText(60)), (text) => {
        try {
          parseTemplate(text);
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateError);
          expect((error as Error).message).toContain(text);
        }
      }),
    );
  });

  it('makes every file and folder name one component that stays in its folder', () => {
    check(
      fc.property(template, template, values, (fileTemplate, folderTemplate, given) => {
        let folders: string[];
        let file: string;
        try {
          folders = renderFolders(folderTemplate, given).map((folder) => safeComponent(folder, 'folder'));
          file = safeComponent(renderFileName(fileTemplate, given), 'file');
        } catch (error) {
          if (error instanceof TemplateError) return true;
          throw error;
        }
        return [...folders, file].every((name) => staysInItsFolder(name));
      }),
    );
  });

  it("keeps the library's names within 80 characters, with its own replacement", () => {
    check(
      fc.property(hostileText(300), fc.constantFrom('file' as const, 'folder' as const), (raw, kind) =>
        staysInItsFolder(safeComponent(raw, kind, { replacement: '-', maxLength: 80 }), 80),
      ),
    );
  });
});
