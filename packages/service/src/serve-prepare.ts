// `listkit serve --data-dir` on a new directory: the directory is made ready (database, tables,
// sample data) by a `listkit serve --prepare-only` process of its own, and the serving process
// then opens it as an existing one. Writing the sample data runs PostgreSQL's insert path often
// enough for V8 to optimise its WebAssembly, and those compilations leave 40-50 MB of scratch
// memory that only the end of a process gives back (decision 0098).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { holdsDatabase } from './db/pglite-thread.js';

/**
 * This package's built `dist/cli.js`, beside the built serve command (tsup emits both into dist/).
 * From the sources (the tests run src/ through Vitest) there is no `cli.js` to run: a new
 * directory is then made ready in the serving process, as an embedder's `createEmulator` does.
 */
const BUILT_CLI = fileURLToPath(new URL('./cli.js', import.meta.url));
/** How long making a directory ready may take: initdb and 306 inserts, minutes on a loaded machine. */
const PREPARE_TIMEOUT_MS = 600_000;

/**
 * Makes `dataDir` ready in a process of its own (`listkit serve <args> --prepare-only`) when it
 * holds no database yet and the built command is there to run; does nothing otherwise. The
 * process's messages go to this one's stderr. Rejects when it fails, with its exit status or the
 * signal that ended it.
 *
 * @example
 * ```ts
 * await prepareNewDataDir('./.listkit', ['--data-dir', './.listkit', '--no-sample-data']);
 * const emulator = await createEmulator({ dataDir: './.listkit' }); // opens a ready directory
 * ```
 */
export async function prepareNewDataDir(dataDir: string, args: readonly string[]): Promise<void> {
  if (holdsDatabase(dataDir) || !existsSync(BUILT_CLI)) return;
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', ...args, '--prepare-only'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: PREPARE_TIMEOUT_MS,
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `preparing the new data directory ${dataDir} failed (${signal ?? `exit status ${code}`})`,
          ),
        );
    });
  });
}
