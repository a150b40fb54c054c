import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from './store-error.js';

/**
 * The lock file inside a data directory: it holds the pid of the process using the directory.
 *
 * @example
 * ```ts
 * readFileSync(join(dataDir, LOCK_FILE), 'utf8'); // '4242\n'
 * ```
 */
export const LOCK_FILE = 'listkit.lock';

/**
 * Takes the data directory for this process: creates `listkit.lock` exclusively with our pid.
 * PGlite does not lock its directory, and two processes on one directory lose committed rows.
 * A lock left by a process that is gone (kill -9) is taken over; one held by a live process,
 * including this one, is refused with `locked`. Returns the release function.
 *
 * @example
 * ```ts
 * const release = lockDataDirectory('/var/lib/listkit');
 * try { … } finally { release(); }
 * ```
 */
export function lockDataDirectory(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
      if (Number.isSafeInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new StoreError(
          'locked',
          `the data directory ${dir} is in use by process ${holder}${holder === process.pid ? ' (this one)' : ''}; one emulator per directory (lock file ${path})`,
        );
      }
      rmSync(path, { force: true }); // left by a process that is gone
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      rmSync(path, { force: true });
    };
    process.on('exit', release);
    return release;
  }
  throw new StoreError('locked', `could not take the lock file ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
