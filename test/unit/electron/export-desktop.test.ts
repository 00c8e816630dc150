import type { NativeImage, OpenDialogOptions, OpenDialogReturnValue } from 'electron';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  DRAG_ICON_PX,
  dragIcon,
  exportDesktop,
  FALLBACK_DRAG_ICON,
  type NativeImages,
} from '../../../src-main/electron/export-desktop.ts';

// The export's desktop calls with Electron's modules as fakes that record what they were asked: the folder
// dialog's options and window, showItemInFolder's path, and startDrag's files and icon.

interface FakeImage {
  from: string;
  width?: number;
}

function images(unreadable: string[] = []): NativeImages {
  const image = (from: string, width?: number): NativeImage =>
    ({
      from,
      width,
      isEmpty: () => unreadable.includes(from),
      resize: (options: { width: number }) => image(from, options.width),
    }) as unknown as NativeImage;
  return { createFromPath: (path) => image(path), createFromDataURL: (url) => image(url) };
}

function fakeWindow() {
  const drags: Array<{ file: string; files?: string[]; icon: unknown }> = [];
  let destroyed = false;
  return {
    drags,
    close: () => {
      destroyed = true;
    },
    window: {
      isDestroyed: () => destroyed,
      webContents: {
        startDrag: (item: { file: string; files?: string[]; icon: unknown }) => drags.push(item),
      },
    },
  };
}

function desktop(answer: OpenDialogReturnValue, win = fakeWindow(), unreadable: string[] = []) {
  const dialogs: Array<{ window: unknown; options: OpenDialogOptions }> = [];
  const revealed: string[] = [];
  const calls = exportDesktop(
    {
      dialog: {
        showOpenDialog: (async (...args: unknown[]) => {
          const options = args.at(-1) as OpenDialogOptions;
          dialogs.push({ window: args.length === 2 ? args[0] : null, options });
          return answer;
        }) as never,
      },
      shell: { showItemInFolder: (path) => revealed.push(path) },
      nativeImage: images(unreadable),
    },
    () => win.window as never,
  );
  return { calls, dialogs, revealed, win };
}

describe('the export folder dialog', () => {
  it('asks for one folder, one that can be made there, over our window', async () => {
    const { calls, dialogs, win } = desktop({ canceled: false, filePaths: ['/Users/ana/Exports'] });
    expect(await calls.openFolderDialog()).toBe('/Users/ana/Exports');
    expect(dialogs[0]!.window).toBe(win.window);
    expect(dialogs[0]!.options.properties).toEqual(['openDirectory', 'createDirectory']);
    expect(dialogs[0]!.options.properties).not.toContain('multiSelections');
  });

  it('answers null when cancelled, and asks without a parent once the window is gone', async () => {
    const { calls, dialogs, win } = desktop({ canceled: true, filePaths: [] });
    expect(await calls.openFolderDialog()).toBeNull();
    win.close();
    expect(await calls.openFolderDialog()).toBeNull();
    expect(dialogs[1]!.window).toBeNull();
  });
});

describe('reveal', () => {
  it('shows the item selected in its folder', async () => {
    const { calls, revealed } = desktop({ canceled: true, filePaths: [] });
    await calls.revealItem('/Users/ana/Exports/manifest.csv');
    expect(revealed).toEqual(['/Users/ana/Exports/manifest.csv']);
  });
});

describe('drag out', () => {
  it('starts one drag of every file, the first picture small as its icon', async () => {
    const { calls, win } = desktop({ canceled: true, filePaths: [] });
    const files = ['/lib/hat/video-1.mp4', '/lib/hat/shot-1.jpg', '/lib/cap/shot-1.jpg'];
    await calls.startDrag(files);
    expect(win.drags).toHaveLength(1);
    expect(win.drags[0]!.files).toEqual(files);
    expect(win.drags[0]!.file).toBe(files[0]);
    expect(win.drags[0]!.icon as FakeImage).toEqual(
      expect.objectContaining({ from: '/lib/hat/shot-1.jpg', width: DRAG_ICON_PX }),
    );
  });

  it('shows the plain page for videos and pictures Electron cannot read', () => {
    expect((dragIcon(images(), ['/a/video-1.mp4', '/a/shot.webp']) as unknown as FakeImage).from).toBe(
      FALLBACK_DRAG_ICON,
    );
    expect((dragIcon(images(['/a/broken.png']), ['/a/broken.png']) as unknown as FakeImage).from).toBe(
      FALLBACK_DRAG_ICON,
    );
  });

  it('has a real picture as the plain page: macOS refuses an empty drag icon', async () => {
    const png = Buffer.from(FALLBACK_DRAG_ICON.slice('data:image/png;base64,'.length), 'base64');
    const { info, data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([DRAG_ICON_PX, DRAG_ICON_PX]);
    // Not blank: some pixels are opaque and not all alike.
    const opaque = new Set<string>();
    for (let at = 0; at < data.length; at += info.channels) {
      if (info.channels < 4 || data[at + 3]! > 0) opaque.add(`${data[at]},${data[at + 1]},${data[at + 2]}`);
    }
    expect(opaque.size).toBeGreaterThan(2);
  });

  it('starts nothing without files or once the window is gone', async () => {
    const { calls, win } = desktop({ canceled: true, filePaths: [] });
    await calls.startDrag([]);
    win.close();
    await calls.startDrag(['/lib/hat/shot-1.jpg']);
    expect(win.drags).toEqual([]);
  });
});
