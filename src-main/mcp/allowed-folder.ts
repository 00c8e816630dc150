import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Refusal } from '../core/app/dispatch.ts';
import { isWithin, makeRealFolder, OutsideFolderError, realPathOf } from '../core/app/public-api.ts';

// The folder an agent asks export_batch to write into, held to the folders the user allowed by where they
// really are (core/util/real-path.ts): a link inside an allowed folder that points out of it is refused, and
// the folder is made here, level by level, refusing a link made between the check and the making. The
// export then writes to the real path it answers, and checks each file's folder again before writing
// (core/export/place-file.ts). What remains: a folder swapped for a link between that last check and the
// file's write (microseconds, by someone who can already write in the allowed folder).

/**
 * Where an agent's folder is: `~/…` in the home folder, as a shell would say it; a relative name inside the
 * first allowed folder (an agent has no working folder of its own that means anything here: `spring` is
 * `<allowed>/spring`); an absolute path as it is.
 */
function placed(folder: string, allowed: readonly string[]): string {
  if (folder === '~' || folder.startsWith('~/')) return join(homedir(), folder.slice(1));
  return isAbsolute(folder) ? folder : join(allowed[0]!, folder);
}

/** The real path of `folder`, made, if it is one the user allowed for agents or inside one; refused otherwise. */
export async function allowedFolder(asked: string, allowed: string[]): Promise<string> {
  if (allowed.length === 0) {
    throw new Refusal(
      'refused',
      'No export folder is allowed for agents: the user allows one with adbatch mcp --export-folder DIR (or, in the app, agents export into the library’s "Agent exports" folder).',
    );
  }
  const folder = placed(asked, allowed);
  const refusal = (why: string) =>
    new Refusal(
      'refused',
      `${folder} is not a folder the user allowed for agents${why}: ${allowed.join(', ')}.`,
    );
  const wanted = await realPathOf(folder);
  const roots = await Promise.all(allowed.map((root) => realPathOf(root)));
  if (!roots.some((root) => isWithin(root, wanted))) {
    throw refusal(wanted === folder ? '' : ` (it leads to ${wanted} through a link)`);
  }
  try {
    await makeRealFolder(wanted);
  } catch (error) {
    if (error instanceof OutsideFolderError) throw refusal(` (${error.message})`);
    throw error;
  }
  return wanted;
}
