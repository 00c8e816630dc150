import { writeFile } from 'node:fs/promises';
import type { BrowserWindow, Dialog, SaveDialogOptions, WebContents } from 'electron';

// A client statement saved as a PDF (issue 15, point 7): the window, showing the statement screen, printed
// by Chromium (`printToPDF`, with the screen's print style: the statement alone) to the file the user
// names in the OS's save dialog. Core checked the call; the file name is only a suggestion in the dialog.

export function statementPdf(
  electron: { dialog: Pick<Dialog, 'showSaveDialog'> },
  window: () =>
    | (Pick<BrowserWindow, 'isDestroyed'> & { webContents: Pick<WebContents, 'printToPDF'> })
    | null,
): (fileName: string) => Promise<{ path: string } | null> {
  return async (fileName) => {
    const current = window();
    if (!current || current.isDestroyed()) return null;
    const options: SaveDialogOptions = {
      title: 'Save the statement as PDF',
      defaultPath: fileName.replace(/\.csv$/i, '.pdf'),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    };
    const choice = await electron.dialog.showSaveDialog(current as BrowserWindow, options);
    if (choice.canceled || !choice.filePath) return null;
    const pdf = await current.webContents.printToPDF({ printBackground: true, pageSize: 'A4' });
    await writeFile(choice.filePath, pdf);
    return { path: choice.filePath };
  };
}
