import type { BrowserWindow, Dialog, NativeImage, OpenDialogOptions, Shell, WebContents } from 'electron';

// The desktop's part of an export (issue 13, point 9), handed to core as options: the folder an export goes
// into (the OS's folder dialog), a finished export shown selected in Finder / Explorer / the file manager,
// and files dragged out of the window. Core has already checked the call came from our window and what it
// names; every path here is core's, never the page's.

/** Electron's `nativeImage` as far as a drag's icon needs it. */
export interface NativeImages {
  createFromPath(path: string): NativeImage;
  createFromDataURL(url: string): NativeImage;
}

/** The icon a drag shows on the pointer, in pixels across: the size the OS shows a dragged file at. */
export const DRAG_ICON_PX = 64;

/**
 * A plain page with a picture on it, for a drag whose first file has no picture Electron can read (a video,
 * WebP, AVIF): macOS refuses a drag with an empty icon.
 */
export const FALLBACK_DRAG_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABABAMAAABYR2ztAAAAMFBMVEVMaXFbY29bY3BZY29aY3BaY29aY3BbZHCPs9n///+tsbeyt7yorLPU2N12fYekqbAs3meYAAAAB3RSTlMAfYsX4VPxGixsaAAAAAlwSFlzAAALEwAACxMBAJqcGAAAALVJREFUSIljYKASYA4URAOiBijy6uUYoAhZhQmmfHm5M5IB7uXvz6CBf+UlCCOYymtnYoDr5QpwBeblNzEVzC0vhisIr8OUnznzeSlcgXg9NgXfCxEKqrApWD4UFdzoQAK9WBR0oIBRBRAwGg4DGQ43CCVaDDAkFdxDLiPfYlHwHFlBHTkK7hGyAgMMOQX1BArzcELVgTmhCoVglQSq1HajAZRKjWC1SLhiZWAOVEIDqFUzJQAA4UH24c+ZBdkAAAAASUVORK5CYII=';

/** nativeImage reads PNG and JPEG on every platform (and more on some): the first such file is the icon. */
const ICON_FILE = /\.(png|jpe?g)$/i;

/** The first dragged picture, small; else the plain page. */
export function dragIcon(images: NativeImages, files: readonly string[]): NativeImage {
  const picture = files.find((file) => ICON_FILE.test(file));
  if (picture) {
    const image = images.createFromPath(picture);
    if (!image.isEmpty()) return image.resize({ width: DRAG_ICON_PX });
  }
  return images.createFromDataURL(FALLBACK_DRAG_ICON);
}

export interface ExportDesktop {
  openFolderDialog(): Promise<string | null>;
  revealItem(path: string): Promise<void>;
  startDrag(files: string[]): Promise<void>;
}

export function exportDesktop(
  electron: {
    dialog: Pick<Dialog, 'showOpenDialog'>;
    shell: Pick<Shell, 'showItemInFolder'>;
    nativeImage: NativeImages;
  },
  window: () => (Pick<BrowserWindow, 'isDestroyed'> & { webContents: Pick<WebContents, 'startDrag'> }) | null,
): ExportDesktop {
  const live = () => {
    const current = window();
    return current && !current.isDestroyed() ? current : null;
  };
  return {
    async openFolderDialog() {
      const options: OpenDialogOptions = {
        title: 'Choose the export folder',
        buttonLabel: 'Export here',
        // macOS offers "New Folder" with createDirectory; Windows always does.
        properties: ['openDirectory', 'createDirectory'],
      };
      const current = live();
      const result = current
        ? await electron.dialog.showOpenDialog(current as BrowserWindow, options)
        : await electron.dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async revealItem(path) {
      electron.shell.showItemInFolder(path);
    },
    async startDrag(files) {
      const current = live();
      // A drag begun in a window that has since closed has nowhere to start from.
      if (!current || files.length === 0) return;
      current.webContents.startDrag({
        file: files[0]!,
        files,
        icon: dragIcon(electron.nativeImage, files),
      });
    },
  };
}
