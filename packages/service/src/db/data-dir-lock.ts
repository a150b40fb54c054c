import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Refusal } from '../core/refusal.js';

/**
 * The lock file inside a data directory: it holds the pid of the process using the directory.
 *
 * @example
 * ```ts
 * readFileSync(join(dataDir, LOCK_FILE), 'utf8'); // '4242\n'
 * ```
 */
export const LOCK_FILE = 'listkit.lock';

/** How long a process waits for another one taking over a stale lock (ms). */
const TAKEOVER_WAIT_MS = 5_000;

/**
 * Takes the data directory for this process: `listkit.lock` appears with our pid in one step
 * (written to a file of our own, then hard-linked, which fails if the lock exists). PGlite does
 * not lock its directory, and two processes on one directory lose committed rows. A lock left by
 * a process that is gone (kill -9) is taken over; one held by a live process, including this
 * one, is refused with `locked`. Returns the release function.
 *
 * Two processes finding one stale lock at once must not both take over (each removing the
 * other's fresh lock): a takeover happens only under `listkit.lock.takeover`, created
 * exclusively, and re-reads the lock before removing it.
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
  const mine = join(dir, `${LOCK_FILE}.${process.pid}`);
  writeOwnFile(mine);
  try {
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    for (;;) {
      try {
        linkSync(mine, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = holderOf(path);
      if (holder !== undefined && isAlive(holder)) {
        throw new Refusal(
          'locked',
          `the data directory ${dir} is in use by process ${holder}${holder === process.pid ? ' (this one)' : ''}; one emulator per directory (lock file ${path})`,
        );
      }
      if (!takeOverStale(path, holder) && Date.now() > deadline) {
        throw new Refusal('locked', `could not take the lock file ${path}`);
      }
    }
  } finally {
    rmSync(mine, { force: true });
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only our own lock: never one another process took after us.
    if (holderOf(path) === process.pid) rmSync(path, { force: true });
  };
  process.on('exit', release);
  return release;
}

/**
 * Removes a stale lock held by `holder` (a process that is gone), under the takeover guard.
 * Returns false when another process holds the guard (the caller tries again).
 */
function takeOverStale(path: string, holder: number | undefined): boolean {
  const guard = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const guardHolder = holderOf(guard);
    // A guard whose writer died mid-takeover (or never wrote) is old: clear it.
    if ((guardHolder === undefined || !isAlive(guardHolder)) && ageMs(guard) > 1_000) {
      rmSync(guard, { force: true });
    } else pause(5);
    return false;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    // Still the stale lock we saw (not one a faster process has just taken)?
    if (holderOf(path) === holder) rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

function writeOwnFile(path: string): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The pid in a lock file; undefined when there is no file or no pid in it. */
function holderOf(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
