import type { ArgsOf, Channel, EventName, Events, ResultOf } from '../../../src-main/shared/ipc.ts';
import type { Transport } from './transport.ts';
import { webSocketTransport } from './web-socket-transport.ts';

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

function pickTransport(): Transport {
  if (window.adbatch) return window.adbatch;
  const url = new URL('/ipc', window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return webSocketTransport(url.toString());
}

const transport = pickTransport();

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
