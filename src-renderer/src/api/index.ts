import type { ArgsOf, Channel, EventName, Events, ResultOf } from '../../../src-main/shared/ipc.ts';
import type { Transport } from './transport.ts';
import { harnessSocketUrl, webSocketTransport } from './web-socket-transport.ts';

// The renderer's one way to main. Components and stores call `api.call(...)`; nothing else knows whether
// Electron or the browser harness carries it.

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** True only in the browser harness's build (`electron-vite build --mode harness`); see electron.vite.config.ts. */
declare const __ADBATCH_HARNESS__: boolean;

function pickTransport(): Transport {
  if (window.adbatch) return window.adbatch;
  // A constant at build time: in the app's bundle this branch and the WebSocket transport are gone.
  if (__ADBATCH_HARNESS__) return webSocketTransport(harnessSocketUrl(window.location));
  throw new Error('Adbatch runs in its own window: this page has no bridge to the app.');
}

const transport = pickTransport();

/**
 * In a browser (`npm run app:web`, the browser harness), not the desktop app's window: a drop carries no
 * path there, so a path is typed instead.
 */
export const inBrowser = !window.adbatch;

export const api = {
  async call<C extends Channel>(
    channel: C,
    ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
  ): Promise<ResultOf<C>> {
    const reply = await transport.invoke(channel, args[0]);
    if (!reply.ok) throw new ApiError(reply.error.code, reply.error.message);
    return reply.value as ResultOf<C>;
  },
  on<E extends EventName>(event: E, callback: (payload: Events[E]) => void): () => void {
    return transport.on(event, callback);
  },
  pathsForFiles: (files: File[]) => transport.pathsForFiles(files),
};

/** A message for the user from anything thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** For a form's action: resolves to the refusal in words, or null when it went through. */
export async function failureOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    return messageOf(error);
  }
}
