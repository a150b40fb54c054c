import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StatementTimeoutError } from './statement-timeout.js';

type Row = Record<string, unknown>;
type Reply = {
  id: number;
  rows?: Row[];
  results?: Row[][];
  error?: Record<string, unknown> & { message: string };
};
type Waiter = { resolve: (reply: Reply) => void; reject: (error: Error) => void };

// Resolved next to this module: src/db/ when running from the sources, dist/ once built
// (tsup emits the worker as dist/pglite-worker.js beside the chunks that start it).
const WORKER_URL = new URL('./pglite-worker.js', import.meta.url);
const CREATE_PATH = fileURLToPath(new URL('./pglite-create.js', import.meta.url));
/**
 * The PGlite thread's young generation. V8 lets a thread's grow to 32 MB when start-up allocates
 * fast (PGlite unpacking its files), and keeps it; the thread's JavaScript only moves rows between
 * PostgreSQL and the server thread, which 8 MB serves. BENCHMARKS.md "Start-up memory".
 */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 8 };
/** How long creating a database may take (a few seconds; minutes on a loaded 2-core machine). */
const CREATE_TIMEOUT_MS = 300_000;

/**
 * One worker thread that owns a PGlite database (pglite-worker.js), and the statements sent to it.
 * A statement that runs past its time limit terminates the thread: PGlite cannot be interrupted
 * from inside, and a terminated thread is, for the database, a crash: the next thread started on
 * the directory recovers it from the write-ahead log, every committed transaction kept and the
 * interrupted one rolled back. A stopped thread refuses every further statement.
 *
 * @example
 * ```ts
 * const thread = await PgliteThread.start('/var/lib/listkit');
 * await thread.query('SELECT 1 AS one', [], 5_000); // [{ one: 1 }]
 * await thread.close();
 * ```
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiter>();
  #nextId = 0;
  #stopped: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      const waiter = this.#waiting.get(reply.id);
      if (!waiter) return;
      this.#waiting.delete(reply.id);
      if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), reply.error));
      else waiter.resolve(reply);
    });
    worker.on('error', (error) =>
      this.#stop(new Error(`the PGlite thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) => this.#stop(new Error(`the PGlite thread exited (code ${code})`)));
  }

  /**
   * Starts a thread and opens the database in `dataDir`; rejects with PGlite's reason if it cannot.
   * A directory without a database gets one first, from a process of its own (pglite-create.js):
   * PGlite's initdb leaves ~500 MB that only the end of a process gives back.
   */
  static async start(dataDir: string): Promise<PgliteThread> {
    if (!holdsDatabase(dataDir)) await createDatabase(dataDir);
    const worker = new Worker(WORKER_URL, { workerData: { dataDir }, resourceLimits: THREAD_HEAP });
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        worker.off('message', ready);
        void worker.terminate();
        reject(error);
      };
      const exited = (code: number) =>
        failed(new Error(`the PGlite thread exited (code ${code}) before the database opened`));
      function ready() {
        worker.off('error', failed);
        worker.off('exit', exited);
        resolve(new PgliteThread(worker));
      }
      worker.once('message', ready);
      worker.once('error', failed);
      worker.once('exit', exited);
    });
  }

  /** Why the thread stopped, or undefined while it runs. */
  get stopped(): Error | undefined {
    return this.#stopped;
  }

  /**
   * Runs one statement; past `timeoutMs` the thread is terminated and the statement rejects with
   * a {@link StatementTimeoutError}. `alone` runs it outside any transaction (VACUUM).
   */
  async query(
    text: string,
    params: readonly unknown[],
    timeoutMs: number,
    alone = false,
  ): Promise<Row[]> {
    return (await this.#send({ text, params, alone }, timeoutMs)).rows ?? [];
  }

  /**
   * Runs a text of statements as one simple query (PGlite's exec), under the same time limit as
   * one statement; each statement's rows, in order.
   */
  async script(text: string, timeoutMs: number): Promise<Row[][]> {
    return (await this.#send({ text, script: true }, timeoutMs)).results ?? [];
  }

  #send(message: Record<string, unknown>, timeoutMs: number): Promise<Reply> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new StatementTimeoutError(timeoutMs);
        this.#stop(error);
        void this.#worker.terminate();
      }, timeoutMs);
      const settle =
        <A>(then: (value: A) => void) =>
        (value: A) => {
          clearTimeout(timer);
          then(value);
        };
      this.#waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
      this.#worker.postMessage({ id, ...message });
    });
  }

  /** Closes the database (a clean shutdown: no recovery needed at the next start) and the thread. */
  async close(timeoutMs: number): Promise<void> {
    if (!this.#stopped) {
      const id = this.#nextId++;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        this.#waiting.set(id, { resolve: done, reject: done });
        this.#worker.postMessage({ id, close: true });
      });
    }
    this.#stop(new Error('the PGlite database is closed'));
    await this.#worker.terminate();
  }

  /** Marks the thread stopped (the first reason stays) and fails every statement waiting on it. */
  #stop(reason: Error): void {
    this.#stopped ??= reason;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#stopped);
    this.#waiting.clear();
  }
}

/**
 * Whether `dataDir` holds a database already: PostgreSQL's initdb writes `PG_VERSION` into every
 * directory it creates a database in.
 */
export function holdsDatabase(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/** Creates the database in `dataDir` in a process that exits once it has; rejects with why not. */
function createDatabase(dataDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const options = { timeout: CREATE_TIMEOUT_MS };
    execFile(process.execPath, [CREATE_PATH, dataDir], options, (error, _stdout, stderr) => {
      if (!error) resolve();
      else
        reject(
          new Error(
            `PGlite could not create a database in ${dataDir}: ${stderr.trim() || error.message}`,
          ),
        );
    });
  });
}
