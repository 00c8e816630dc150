import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg } from '../../support/bad-inputs.ts';
import { adbatch } from '../../support/cli.ts';

// Names from outside printed by the real CLI (hostile input): a folder whose name clears the screen and
// paints it red, a file whose name sets the terminal's title and writes its clipboard (OSC 0, OSC 52), one
// whose carriage return would print over its own line and one whose right-to-left override shows its name
// backwards. None of them acts on the terminal: each control is shown as its `\uXXXX` escape, in the text
// and on stderr alike, and `--json` keeps the very same names.

const CLEARS = '\u001b[2J\u001b[31mred\u001b[0m';
const TITLE = 'title\u001b]0;pwned\u0007';
const CLIPBOARD = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const OVER = 'safe\rEVIL';
const BACKWARDS = 'photo\u202egpj.exe';

/** Any character that would act on a terminal, but the line feed and the tab. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its whole job.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dir: string;
let dropped: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-terminal-'));
  dropped = join(dir, 'dropped');
  await mkdir(join(dropped, CLEARS), { recursive: true });
  await writeFile(join(dropped, CLEARS, 'front.jpg'), await jpeg(600, 600, 1));
  await mkdir(join(dropped, TITLE));
  await writeFile(join(dropped, TITLE, `${CLIPBOARD}.jpg`), 'not a photo');
  await writeFile(join(dropped, TITLE, `${OVER}.jpg`), await jpeg(600, 600, 2));
  await writeFile(join(dropped, TITLE, `${BACKWARDS}.jpg`), await jpeg(600, 600, 3));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folders = () => ['--library', join(dir, 'library'), '--data-dir', join(dir, 'data')];
const escaped = (text: string) =>
  text.replace(
    new RegExp(CONTROL.source, 'g'),
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

describe('names that would act on the terminal', () => {
  it('are printed as their escapes, never as controls, and kept as they are in --json', async () => {
    const text = await adbatch(['scan', dropped, ...folders()]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toMatch(CONTROL);
    expect(text.stderr).not.toMatch(CONTROL);
    expect(text.stdout).toContain('\n\\u001b[2J\\u001b[31mred\\u001b[0m\n');
    expect(text.stdout).toContain(escaped(join(dropped, CLEARS, 'front.jpg')));
    expect(text.stdout).toContain('title\\u001b]0;pwned\\u0007');
    expect(text.stdout).toContain('\\u001b]52;c;ZWNobyBwd25lZA==\\u0007.jpg: not an image');
    expect(text.stdout).toContain('safe\\u000dEVIL.jpg');
    expect(text.stdout).toContain('photo\\u202egpj.exe.jpg');

    const json = await adbatch(['scan', dropped, '--json', ...folders()]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).not.toMatch(CONTROL);
    const plan = JSON.parse(json.stdout) as {
      products: Array<{ name: string; photos: Array<{ file: string }> }>;
    };
    expect(plan.products.map((product) => product.name).sort()).toEqual([CLEARS, TITLE].sort());
    const titled = plan.products.find((product) => product.name === TITLE)!;
    expect(titled.photos.map((photo) => photo.file).sort()).toEqual(
      [join(dropped, TITLE, `${BACKWARDS}.jpg`), join(dropped, TITLE, `${OVER}.jpg`)].sort(),
    );
  });

  it('are escaped in a refusal on stderr too', async () => {
    const missing = join(dir, `gone${TITLE}`);
    const refused = await adbatch(['run', missing, '--sandbox', '--style', 'classic', '--yes', ...folders()]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).not.toMatch(CONTROL);
    expect(`${refused.stdout}${refused.stderr}`).toContain(escaped(missing));
  });

  it('cannot forge a line of a quote: a name’s line feed is shown as its escape in the table', async () => {
    // A folder named to print a total of its own under the real one's place in the table.
    const forged = join(dir, 'forged');
    const name = 'hat\nTotal                 0';
    await mkdir(join(forged, name), { recursive: true });
    await writeFile(join(forged, name, 'front.jpg'), await jpeg(600, 600, 4));
    // Without --yes: the quote alone, nothing started (exit 1).
    const quoted = await adbatch(['run', forged, '--sandbox', '--style', 'classic', ...folders()]);
    expect(quoted.stderr).toContain('Nothing was started.');
    const lines = quoted.stdout.split('\n');
    // One total, the real one; the product's row holds its whole name on its own line.
    expect(lines.filter((line) => line.startsWith('Total'))).toEqual([expect.stringMatching(/^Total\s+4$/)]);
    expect(lines).toContainEqual(expect.stringMatching(/^hat\\u000aTotal {17}0\s+4\s+4$/));
    const scanned = await adbatch(['scan', forged, ...folders()]);
    expect(scanned.stdout.split('\n').filter((line) => line.startsWith('Total'))).toEqual([]);
    expect(scanned.stdout).toContain('\nhat\\u000aTotal                 0\n');
    // Shot, and reported: its jobs' lines in status hold the name on one line too.
    const ran = await adbatch(['run', forged, '--sandbox', '--style', 'classic', '--yes', ...folders()]);
    expect(ran.code, ran.stderr).toBe(0);
    const batchId = /Batch (b_[0-9a-f]+) started/.exec(ran.stdout)![1]!;
    const status = await adbatch(['status', batchId, '--data-dir', join(dir, 'data')]);
    expect(status.stdout).toMatch(/^ {4}hat\\u000aTotal {17}0 {2}shoot /m);
    expect(status.stdout.split('\n').filter((line) => /^\s*Total/.test(line))).toEqual([]);
  });
});
