/**
 * Whether a process of this id runs on this computer (one of another user's answers EPERM: it runs). A pid
 * reused by another process since is taken for the one asked about: callers say what they guess of that.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
