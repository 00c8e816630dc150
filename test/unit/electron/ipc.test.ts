import { describe, expect, it } from 'vitest';
import { CoreEvents } from '../../../src-main/core/app/events.ts';
import { forwardEvents, registerIpc, trustedSender } from '../../../src-main/electron/ipc.ts';
import { CHANNELS } from '../../../src-main/shared/ipc.ts';

type Handler = (event: unknown, args: unknown) => unknown;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  };
}

describe('registerIpc', () => {
  it('registers every channel of the contract and nothing else; removes them all', () => {
    const ipcMain = fakeIpcMain();
    const unregister = registerIpc(
      ipcMain as never,
      async () => ({ ok: true, value: null }) as never,
      () => true,
    );
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...CHANNELS].sort());
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('dispatches a trusted call with its channel and arguments; refuses an untrusted sender', async () => {
    const ipcMain = fakeIpcMain();
    const calls: Array<[string, unknown]> = [];
    let trusted = true;
    registerIpc(
      ipcMain as never,
      async (channel, args) => {
        calls.push([channel, args]);
        return { ok: true, value: 'done' } as never;
      },
      () => trusted,
    );
    expect(await ipcMain.handlers.get('batches:get')!({}, { id: 'b1' })).toEqual({ ok: true, value: 'done' });
    trusted = false;
    expect(await ipcMain.handlers.get('batches:get')!({}, { id: 'b2' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(calls).toEqual([['batches:get', { id: 'b1' }]]);
  });
});

describe('trustedSender', () => {
  const mainFrame = { url: 'file:///app/out/renderer/index.html' };
  const contents = { mainFrame };
  const own = (url: string) => url.endsWith('/renderer/index.html');
  const check = trustedSender(() => contents as never, own);

  it('trusts only the main frame of our window, on our own page', () => {
    expect(check({ sender: contents, senderFrame: mainFrame } as never)).toBe(true);
    expect(check({ sender: {}, senderFrame: mainFrame } as never)).toBe(false);
    expect(check({ sender: contents, senderFrame: { url: mainFrame.url } } as never)).toBe(false);
    expect(check({ sender: contents, senderFrame: null } as never)).toBe(false);
    const navigated = { mainFrame: { url: 'https://evil.example/' } };
    expect(
      trustedSender(
        () => navigated as never,
        own,
      )({ sender: navigated, senderFrame: navigated.mainFrame } as never),
    ).toBe(false);
    expect(trustedSender(() => null, own)({ sender: contents, senderFrame: mainFrame } as never)).toBe(false);
  });
});

describe('forwardEvents', () => {
  it('sends every core event to the window as { event, payload } until unsubscribed', () => {
    const events = new CoreEvents();
    const sent: unknown[] = [];
    const stop = forwardEvents(events, (payload) => sent.push(payload));
    events.emit('batches:changed', { id: 'b1' });
    events.emit('app:command', { command: 'settings' });
    stop();
    events.emit('batches:changed', { id: 'b2' });
    expect(sent).toEqual([
      { event: 'batches:changed', payload: { id: 'b1' } },
      { event: 'app:command', payload: { command: 'settings' } },
    ]);
  });
});
