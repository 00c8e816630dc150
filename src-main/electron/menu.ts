import type { MenuItemConstructorOptions } from 'electron';

// Native menus following each platform's conventions: the app menu and Settings... (Preferences) on macOS,
// Settings under File elsewhere; Reveal in Finder / Show in Explorer / Show in Folder by platform.

export interface MenuActions {
  newBatch(): void;
  openFolder(): void;
  settings(): void;
  revealLibrary(): void;
}

export function revealLabel(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Reveal Library in Finder';
  if (platform === 'win32') return 'Show Library in Explorer';
  return 'Show Library in Folder';
}

export function menuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  actions: MenuActions,
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const settingsItem: MenuItemConstructorOptions = {
    label: mac ? 'Settings…' : 'Settings',
    accelerator: mac ? 'Cmd+,' : 'Ctrl+,',
    click: () => actions.settings(),
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'New Batch', accelerator: 'CmdOrCtrl+N', click: () => actions.newBatch() },
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
      { type: 'separator' },
      {
        label: revealLabel(platform),
        accelerator: 'CmdOrCtrl+Shift+R',
        click: () => actions.revealLibrary(),
      },
      ...(mac
        ? []
        : [
            { type: 'separator' } as const,
            settingsItem,
            { type: 'separator' } as const,
            { role: 'quit' } as const,
          ]),
      ...(mac ? [{ type: 'separator' } as const, { role: 'close' } as const] : []),
    ],
  };
  return [
    ...(mac
      ? [
          {
            label: appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              settingsItem,
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
}
