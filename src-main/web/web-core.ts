import { join } from 'node:path';
import { VERSION } from '../cli/version.ts';
import { callHandler } from '../core/app/dispatch.ts';
import { SANDBOX_ACCOUNT_ID, type SecretBox } from '../core/app/public-api.ts';
import { type Core, createCore } from '../core/create-core.ts';
import { appPreferences } from '../electron/preferences.ts';
import { startMcpHttp } from '../mcp/http.ts';
import { startEmbeddedSandbox } from '../sandbox/embedded.ts';
import { jsonPreferenceFile, PREFERENCES_FILE } from './preference-file.ts';

// The core of the app in a browser, composed as the desktop app composes its own (src-main/index.ts) from
// what plain Node has: the same data folder, library and preferences file; the embedded sandbox at the
// app's speed; the folder browser in the user's home where the app has the OS's dialogs.

/**
 * Keys stay in the desktop app's keychain (Electron's safeStorage), which plain Node cannot open, and are
 * never kept in the clear: here the Sandbox account works, and a key is refused in the sentence core has
 * for a machine with no secure storage.
 */
const NO_KEYCHAIN: SecretBox = {
  available: () => false,
  seal: () => {
    throw new Error('the browser version does not store keys: add them in the desktop app');
  },
  open: () => {
    throw new Error('keys stored by the desktop app are opened only by the desktop app');
  },
};

/** A core started on `dataDir`, its results in `libraryDir`, its folder browser in `home`. */
export async function openWebCore(options: { dataDir: string; libraryDir: string; home: string }): Promise<{
  core: Core;
}> {
  const { dataDir } = options;
  const say = (level: string, message: string) => process.stderr.write(`adbatch: ${level}${message}\n`);
  const core: Core = createCore({
    dataDir,
    version: VERSION,
    secrets: NO_KEYCHAIN,
    preferences: appPreferences(jsonPreferenceFile(join(dataDir, PREFERENCES_FILE))),
    defaults: { libraryDir: options.libraryDir, budgetMarginPercent: 0 },
    fileUrl: (token) => `/files/${token}`,
    startSandbox: async () => {
      const embedded = await startEmbeddedSandbox({
        dataDir,
        timeScale: 0.1,
        onError: (message, error) => say('sandbox: ', `${message}: ${(error as Error).message}`),
      });
      return { url: embedded.url, apiKey: embedded.apiKey, close: () => embedded.sandbox.close() };
    },
    browseHome: options.home,
    serveAgents: (server) =>
      startMcpHttp({
        ...server,
        call: (channel, ...args) => callHandler(core.dispatch, channel, args[0]),
        defaultAccountId: SANDBOX_ACCOUNT_ID,
        version: VERSION,
      }),
    holderName: 'Adbatch in the browser',
    log: {
      info: () => {},
      warn: (message) => say('', message),
      error: (message, error) => say('', `${message}: ${(error as Error | undefined)?.message ?? ''}`),
    },
  });
  await core.start();
  return { core };
}
