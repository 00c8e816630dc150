import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statementPdf } from '../../../src-main/electron/statement-pdf.ts';

// The statement's PDF with Electron's dialog and printToPDF as fakes that record what they were asked; the
// file is written for real.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-pdf-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function fakes(answer: SaveDialogReturnValue) {
  const asked: SaveDialogOptions[] = [];
  const printed: unknown[] = [];
  let destroyed = false;
  const window = {
    isDestroyed: () => destroyed,
    webContents: {
      printToPDF: async (options: unknown) => {
        printed.push(options);
        return Buffer.from('%PDF-1.7 statement');
      },
    },
  };
  const dialog = {
    showSaveDialog: async (_window: unknown, options: SaveDialogOptions) => {
      asked.push(options);
      return answer;
    },
  };
  return { asked, printed, window, dialog, destroy: () => (destroyed = true) };
}

describe('statementPdf', () => {
  it('asks where, suggesting the statement name as .pdf, then writes the printed window there', async () => {
    const target = join(dir, 'acme.pdf');
    const fake = fakes({ canceled: false, filePath: target });
    const save = statementPdf({ dialog: fake.dialog as never }, () => fake.window as never);
    expect(await save('Acme-Outdoor-statement-2026-11-01-to-2026-11-30.csv')).toEqual({ path: target });
    expect(fake.asked[0]).toMatchObject({
      defaultPath: 'Acme-Outdoor-statement-2026-11-01-to-2026-11-30.pdf',
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    });
    expect(fake.printed).toEqual([{ printBackground: true, pageSize: 'A4' }]);
    expect(await readFile(target, 'utf8')).toBe('%PDF-1.7 statement');
  });

  it('prints nothing when the dialog is cancelled or the window is gone', async () => {
    const fake = fakes({ canceled: true, filePath: '' });
    const save = statementPdf({ dialog: fake.dialog as never }, () => fake.window as never);
    expect(await save('x.csv')).toBeNull();
    expect(fake.printed).toEqual([]);
    fake.destroy();
    expect(await save('x.csv')).toBeNull();
    expect(fake.asked).toHaveLength(1);
  });
});
