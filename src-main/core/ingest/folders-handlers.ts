import type { foldersChannels } from '../../shared/contract/ingest.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import { listFolders } from './folder-browser.ts';

// The folder browser's channel: served where the front end gave core the user's home (the app in a browser),
// answered with null where it has the OS's dialog instead.

export function foldersHandlers(ctx: { browseHome: string | null }): HandlersOf<typeof foldersChannels> {
  return {
    'folders:list': async ({ path }) => (ctx.browseHome ? listFolders(ctx.browseHome, path) : null),
  };
}
