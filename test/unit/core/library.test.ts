import { describe, expect, it } from 'vitest';
import { batchFolder, productFolder, safeName } from '../../../src-main/core/library.ts';

/** What Windows, macOS and Linux all accept as one path segment. */
function portable(name: string): boolean {
  return (
    name.length > 0 &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is checked for
    !/[<>:"/\\|?*\u0000-\u001f]/.test(name) &&
    !/[ .]$/.test(name) &&
    !/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name) &&
    name !== '.' &&
    name !== '..' &&
    Buffer.from(name, 'utf8').toString('utf8') === name
  );
}

describe('safeName', () => {
  it('keeps ordinary names as they are', () => {
    expect(safeName('Spring drop')).toBe('Spring drop');
    expect(safeName('Café crème — 50 cl')).toBe('Café crème — 50 cl');
    expect(safeName('T-shirt (red), size M')).toBe('T-shirt (red), size M');
  });

  it('replaces characters no platform allows in a file name', () => {
    expect(safeName('a<b>c:d"e/f\\g|h?i*j')).toBe('a-b-c-d-e-f-g-h-i-j');
    // A leading dot (a hidden folder) is prefixed with `_` by the one rule, as the export's names are.
    expect(safeName('../../etc/passwd')).toBe('_..-..-etc-passwd');
    expect(portable(safeName('../../etc/passwd'))).toBe(true);
  });

  it('replaces control characters and collapses white space', () => {
    expect(safeName('a\u0000b\u0007c\u001fd')).toBe('a-b-c-d');
    // Tabs and line breaks are control characters too: replaced, not collapsed.
    expect(safeName('two\twords\nhere')).toBe('two-words-here');
    expect(safeName('a    b')).toBe('a b');
    expect(safeName('a \u00a0\u2003 b')).toBe('a b');
  });

  it('trims leading spaces and trailing dots and spaces, and shows a leading dot', () => {
    expect(safeName('  name.  ')).toBe('name');
    expect(safeName('...hidden')).toBe('_...hidden');
    expect(safeName('ends with dots...')).toBe('ends with dots');
    expect(safeName('. . .')).toBe('_');
  });

  it('gives an empty name a name', () => {
    expect(safeName('')).toBe('_');
    expect(safeName('   ')).toBe('_');
    expect(safeName('..')).toBe('_');
  });

  it('changes the names Windows reserves, whatever their case', () => {
    for (const name of ['CON', 'con', 'Prn', 'AUX', 'nul', 'COM1', 'com9', 'LPT1', 'lpt3']) {
      const safe = safeName(name);
      expect(safe).not.toBe(name);
      expect(portable(safe), safe).toBe(true);
    }
    expect(safeName('CON')).toBe('_CON');
    expect(safeName(' nul ')).toBe('_nul');
    // Names that merely start like a reserved one are fine.
    expect(safeName('Console')).toBe('Console');
    expect(safeName('auxiliary')).toBe('auxiliary');
  });

  // BUG (library.ts safeName): Windows also reserves a reserved name followed by an extension ("NUL.txt",
  // "aux.cable" are both NUL / AUX); RESERVED only matches the bare name.
  it('changes reserved names followed by an extension', () => {
    for (const name of ['NUL.txt', 'Aux.Cable', 'con.tar.gz'])
      expect(portable(safeName(name)), name).toBe(true);
  });

  it('cuts long names to 80 characters', () => {
    expect(safeName('x'.repeat(200))).toBe('x'.repeat(80));
    expect(safeName('word '.repeat(40)).length).toBeLessThanOrEqual(80);
  });

  // BUG (library.ts safeName): the name is trimmed before it is cut to 80, so the cut can end it with a space or a
  // dot (which Windows refuses), or in the middle of a surrogate pair (an ill-formed name).
  it('never ends a cut name with a space, a dot or half a character', () => {
    for (const name of [`${'a'.repeat(79)} tail`, `${'a'.repeat(79)}.tail`, `${'a'.repeat(79)}😀 tail`]) {
      const safe = safeName(name);
      expect(safe.length).toBeLessThanOrEqual(80);
      expect(portable(safe), JSON.stringify(safe)).toBe(true);
    }
  });

  it('always gives a portable name', () => {
    for (const name of ['', 'x', 'a/b', 'tab\there', ' . ', 'ÄÖÜ', '名前', 'emoji 😀', 'question?', 'LPT9']) {
      expect(portable(safeName(name)), JSON.stringify(name)).toBe(true);
    }
  });

  it('takes the export’s stricter rule: C1 controls, a device name before spaces and a dot, COM¹, LPT0', () => {
    expect(safeName('a\u0085b\u009fc')).toBe('a-b-c');
    expect(safeName('nul .txt')).toBe('_nul .txt');
    expect(safeName('COM¹')).toBe('_COM¹');
    expect(safeName('LPT0')).toBe('_LPT0');
    // Its own cap stays 80 characters (at most 240 bytes, within the rule's 255), so names on disk keep theirs.
    expect(safeName('名'.repeat(100))).toBe('名'.repeat(80));
    expect(safeName(`${'a'.repeat(78)}😀😀`)).toBe(`${'a'.repeat(78)}😀`);
  });

  it('normalises to NFC, so the same name typed two ways gives one folder', () => {
    expect(safeName('Cafe\u0301')).toBe('Caf\u00e9');
  });
});

describe('batchFolder and productFolder', () => {
  it('names a batch folder by its name and the end of its id', () => {
    expect(batchFolder({ id: 'b_0123456789abcdef', name: 'Spring drop' })).toBe('Spring drop (abcdef)');
    expect(batchFolder({ id: 'b_0123456789abcdef', name: 'a/b: c' })).toBe('a-b- c (abcdef)');
    expect(batchFolder({ id: 'b_0123456789abcdef', name: '' })).toBe('_ (abcdef)');
    // Two batches of the same name do not share a folder.
    expect(batchFolder({ id: 'b_aaaaaaaaaa111111', name: 'x' })).not.toBe(
      batchFolder({ id: 'b_aaaaaaaaaa222222', name: 'x' }),
    );
  });

  it('numbers product folders from 001 in batch order, so they sort as the batch does', () => {
    expect(productFolder({ position: 0, name: 'Hat' })).toBe('001 Hat');
    expect(productFolder({ position: 9, name: 'Mug: blue' })).toBe('010 Mug- blue');
    expect(productFolder({ position: 998, name: '' })).toBe('999 _');
    expect(productFolder({ position: 1233, name: 'x' })).toBe('1234 x');
    const folders = [0, 1, 9, 10, 99, 100].map((position) => productFolder({ position, name: 'p' }));
    expect([...folders].sort()).toEqual(folders);
  });
});
