import type { BrowserWindow, BrowserWindowConstructorOptions, Rectangle, WebContents } from 'electron';

// The main window: secure web preferences, navigation and new windows denied, its size and place kept.

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 820 };

export function windowOptions(preload: string, bounds: WindowBounds): BrowserWindowConstructorOptions {
  return {
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Adbatch',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Keeps a saved position only if some display still shows the window's top-left corner. */
export function visibleBounds(saved: WindowBounds | undefined, displays: Rectangle[]): WindowBounds {
  if (!saved) return DEFAULT_BOUNDS;
  if (saved.x === undefined || saved.y === undefined) return { ...saved };
  const onScreen = displays.some(
    (area) =>
      saved.x! >= area.x &&
      saved.y! >= area.y &&
      saved.x! < area.x + area.width &&
      saved.y! < area.y + area.height,
  );
  return onScreen ? saved : { width: saved.width, height: saved.height, maximized: saved.maximized };
}

/** Navigation away from our page and every new window are refused; external links are never opened here. */
export function lockDown(
  contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
  isOwnUrl: (url: string) => boolean,
): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isOwnUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The bounds to save: the normal (unmaximized) ones, and whether it was maximized. */
export function boundsToSave(window: Pick<BrowserWindow, 'getNormalBounds' | 'isMaximized'>): WindowBounds {
  return { ...window.getNormalBounds(), maximized: window.isMaximized() };
}
