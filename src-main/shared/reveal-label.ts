// What "show it in the file manager" is called on each platform, as the platform's own apps call it: Finder
// reveals, Explorer shows, and elsewhere the file manager has no one name.

/** The button that shows a file selected in its folder: "Reveal in Finder", "Show in Explorer", "Show in Folder". */
export function revealInFolderLabel(platform: string): string {
  if (platform === 'darwin') return 'Reveal in Finder';
  if (platform === 'win32') return 'Show in Explorer';
  return 'Show in Folder';
}
