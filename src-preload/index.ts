import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { Channel, EventName, Events } from '../src-main/shared/ipc.ts';

// The renderer's only way to main: invoke a channel of the contract, listen to an event, and read the
// paths of dropped files. Raw ipcRenderer is never exposed; main validates every argument anyway.

const EVENT_CHANNEL = 'adbatch:event';

const bridge = {
  invoke: (channel: Channel, args?: unknown) => ipcRenderer.invoke(channel, args),
  on<E extends EventName>(event: E, callback: (payload: Events[E]) => void): () => void {
    const listener = (_: unknown, message: { event: EventName; payload: unknown }) => {
      if (message.event === event) callback(message.payload as Events[E]);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, listener);
  },
  pathsForFiles: (files: File[]) => files.map((file) => webUtils.getPathForFile(file)).filter(Boolean),
};

export type AdbatchBridge = typeof bridge;

contextBridge.exposeInMainWorld('adbatch', bridge);
