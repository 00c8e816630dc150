import { spawnSync } from 'node:child_process';

/** The pid of a process that has ended: what a writer killed mid-write leaves in its `.part`'s name. */
export function gonePid(): number {
  const ended = spawnSync(process.execPath, ['-e', '']);
  if (ended.pid === undefined) throw new Error('node did not start');
  return ended.pid;
}
