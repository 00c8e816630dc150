import { execFileSync } from 'node:child_process';
import { mkdirSync, statfsSync, writeFileSync } from 'node:fs';
import { appendFile, chmod, rm } from 'node:fs/promises';
import { join } from 'node:path';

// A library folder on a disk that fills up, for the tests of local faults. As root, a real one: a small
// tmpfs mounted for the test, filled until `freeBytes` are left. Otherwise a folder this user may not
// write in (chmod 555): the OS refuses the write as it would on a full disk, with EACCES instead of ENOSPC.
// `kind` says which ran; `mend()` frees the space (or gives the permission back).

export interface SmallDisk {
  kind: 'tmpfs' | 'read-only folder';
  /** The folder to use (a library, or a data folder). */
  library: string;
  /** Takes every byte still free (tmpfs only): the next write that needs a block fails with ENOSPC. */
  fill(): Promise<void>;
  mend(): Promise<void>;
  close(): Promise<void>;
}

/** Whether a real small disk can be made here (root on Linux); otherwise `smallDisk` makes a read-only folder. */
export const canMount = process.platform === 'linux' && process.getuid?.() === 0;

export function smallDisk(root: string, options: { sizeBytes: number; freeBytes: number }): SmallDisk {
  const mount = join(root, 'small-disk');
  mkdirSync(mount, { recursive: true });
  if (canMount) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${options.sizeBytes}`, 'tmpfs', mount]);
    const library = join(mount, 'library');
    mkdirSync(library);
    const { bavail, bsize } = statfsSync(mount);
    const filler = join(mount, 'filler');
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - options.freeBytes)));
    const rest = join(mount, 'filler-rest');
    return {
      kind: 'tmpfs',
      library,
      async fill() {
        const chunk = Buffer.alloc(4096);
        try {
          for (;;) await appendFile(rest, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
      },
      mend: async () => {
        await rm(filler, { force: true });
        await rm(rest, { force: true });
      },
      close: async () => {
        execFileSync('umount', ['-l', mount]);
      },
    };
  }
  const library = join(mount, 'library');
  mkdirSync(library);
  execFileSync('chmod', ['555', library]);
  return {
    kind: 'read-only folder',
    library,
    fill: () => Promise.reject(new Error('a read-only folder cannot be filled: fill() needs a tmpfs (root)')),
    mend: () => chmod(library, 0o755),
    close: () => chmod(library, 0o755),
  };
}
