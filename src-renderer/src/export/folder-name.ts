// A folder's own name, the last of its path, as the export dialog shows the folder chosen above its whole path.
// Either separator: the path is main's, written for the platform it runs on (\ on Windows), not the page's.

export function folderName(path: string): string {
  return (
    path
      .split(/[\\/]+/)
      .filter(Boolean)
      .at(-1) ?? path
  );
}
