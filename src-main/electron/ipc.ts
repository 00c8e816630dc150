import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Dispatch } from '../core/app/dispatch.ts';
import type { CoreEvents } from '../core/app/events.ts';
import { CHANNELS } from '../shared/ipc.ts';

// The handler map on Electron's IPC. Every channel of the contract is registered, nothing else; a call from
// anything but our own window's top frame is refused before dispatch (which then validates the arguments).

export const EVENT_CHANNEL = 'adbatch:event';

export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, args: unknown) => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'bad_request', message: 'refused: not from the Adbatch window' } };
      }
      return dispatch(channel, args);
    });
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** Our window's own top frame, loaded from our own origin: the only sender trusted. */
export function trustedSender(
  windowContents: () => WebContents | null,
  isOwnUrl: (url: string) => boolean,
): (event: IpcMainInvokeEvent) => boolean {
  return (event) => {
    const contents = windowContents();
    const frame = event.senderFrame;
    return (
      contents !== null &&
      event.sender === contents &&
      frame !== null &&
      frame === contents.mainFrame &&
      isOwnUrl(frame.url)
    );
  };
}

/** Core events to the window, on one channel, as `{ event, payload }`. */
export function forwardEvents(events: CoreEvents, send: (payload: unknown) => void): () => void {
  return events.onAny((event, payload) => send({ event, payload }));
}
