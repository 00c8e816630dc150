import type { Channel, EventName, Events, Reply } from '../../../src-main/shared/ipc.ts';

/** How the renderer reaches main: the preload bridge in Electron, a WebSocket in the browser harness. */
export interface Transport {
  invoke(channel: Channel, args: unknown): Promise<Reply<Channel>>;
  on<E extends EventName>(event: E, callback: (payload: Events[E]) => void): () => void;
  /** The paths of dropped files; empty where the platform does not give them (a plain browser). */
  pathsForFiles(files: File[]): string[];
}

declare global {
  interface Window {
    adbatch?: Transport;
  }
}
