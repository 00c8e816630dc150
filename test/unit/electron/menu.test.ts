import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { menuTemplate, revealLabel } from '../../../src-main/electron/menu.ts';

const labels = (items: MenuItemConstructorOptions[]) =>
  items.map((item) => item.label ?? item.role ?? item.type);
const submenu = (item: MenuItemConstructorOptions | undefined) =>
  (item?.submenu ?? []) as MenuItemConstructorOptions[];

describe('menuTemplate', () => {
  const clicked: string[] = [];
  const actions = {
    newBatch: () => clicked.push('new'),
    openFolder: () => clicked.push('open'),
    settings: () => clicked.push('settings'),
    revealLibrary: () => clicked.push('reveal'),
  };

  it('on macOS: an app menu with Settings… (Cmd+,) and Reveal in Finder under File', () => {
    const template = menuTemplate('darwin', 'Adbatch', actions);
    expect(labels(template)).toEqual(['Adbatch', 'File', 'editMenu', 'viewMenu', 'windowMenu']);
    const settings = submenu(template[0]).find((item) => item.label === 'Settings…')!;
    expect(settings.accelerator).toBe('Cmd+,');
    expect(labels(submenu(template[1]))).toEqual([
      'New Batch',
      'Open Folder…',
      'separator',
      'Reveal Library in Finder',
      'separator',
      'close',
    ]);
  });

  it('on Windows and Linux: Settings and Quit under File, Explorer or Folder wording', () => {
    const windows = menuTemplate('win32', 'Adbatch', actions);
    expect(labels(windows)[0]).toBe('File');
    expect(labels(submenu(windows[0]))).toEqual([
      'New Batch',
      'Open Folder…',
      'separator',
      'Show Library in Explorer',
      'separator',
      'Settings',
      'separator',
      'quit',
    ]);
    expect(revealLabel('linux')).toBe('Show Library in Folder');
  });

  it('wires each item to its action', () => {
    for (const item of submenu(menuTemplate('linux', 'Adbatch', actions)[0]))
      (item.click as (() => void) | undefined)?.();
    expect(clicked).toEqual(['new', 'open', 'reveal', 'settings']);
  });
});
