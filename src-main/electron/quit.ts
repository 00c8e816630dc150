import type { App } from 'electron';

// Quitting waits for core to stop: a job between its POST and the commit of the service's answer must be
// committed before the process ends, or the next start cannot know whether it was created (and paid).
// The first quit is held back, core stopped, then the quit goes through; further quit requests while it
// stops are held back too, so stop runs once.

export function quitAfterStop(
  app: Pick<App, 'on' | 'quit'>,
  stop: () => Promise<void>,
  onError: (error: unknown) => void,
): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    void stop()
      .catch(onError)
      .finally(() => {
        state = 'stopped';
        app.quit();
      });
  });
}
