import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { quitAfterStop } from '../../../src-main/electron/quit.ts';

// A fake app that behaves like Electron's: quit() emits before-quit, and the app ends unless a listener
// prevented it.

function fakeApp() {
  const emitter = new EventEmitter();
  const app = {
    ended: false,
    quitCalls: 0,
    on: (name: string, listener: (event: { preventDefault(): void }) => void) => {
      emitter.on(name, listener);
      return app;
    },
    quit: () => {
      app.quitCalls++;
      let prevented = false;
      emitter.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) app.ended = true;
    },
  };
  return app;
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('quitAfterStop', () => {
  it('holds the quit until core has stopped, then quits for real', async () => {
    const app = fakeApp();
    const stopped = deferred();
    let stops = 0;
    quitAfterStop(
      app as never,
      () => {
        stops++;
        return stopped.promise;
      },
      () => {},
    );
    app.quit();
    expect(app.ended).toBe(false);
    // Quit again (Cmd+Q twice, the last window closed) while core stops: still held, stop not run twice.
    app.quit();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(app.ended).toBe(false);
    expect(stops).toBe(1);
    stopped.resolve();
    await expect.poll(() => app.ended).toBe(true);
    expect(stops).toBe(1);
  });

  it('quits even when stopping fails, and reports why', async () => {
    const app = fakeApp();
    const errors: unknown[] = [];
    const stopped = deferred();
    quitAfterStop(
      app as never,
      () => stopped.promise,
      (error) => errors.push(error),
    );
    app.quit();
    stopped.reject(new Error('database is locked'));
    await expect.poll(() => app.ended).toBe(true);
    expect(errors).toEqual([new Error('database is locked')]);
  });
});
