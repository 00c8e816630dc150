// What a re-export says when a file it placed before was changed since (by the designer, by another tool):
// that file is a stranger's now, kept as it is, and the new one went beside it (place-file.ts).

export function keptChangedNote(kept: string, placed: string): string {
  return `${kept} was changed since Adbatch wrote it: kept as it is; this export's file is ${placed}.`;
}
