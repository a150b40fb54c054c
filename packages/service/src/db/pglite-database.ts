import { batchText, runBatchedTransaction } from './batched-transaction.js';
import { lockDataDirectory } from './data-dir-lock.js';
import { PgliteThread } from './pglite-thread.js';
import type { SqlDatabase } from './sql-database.js';

/**
 * Options of {@link openPgliteDatabase}.
 *
 * @example
 * ```ts
 * const options: PgliteDatabaseOptions = { statementTimeoutMs: 10_000 };
 * ```
 */
export interface PgliteDatabaseOptions {
  /**
   * The longest one statement may run before its thread is stopped (default 60,000 ms). List
   * calls pass their own, shorter limit per transaction.
   */
  statementTimeoutMs?: number;
}

/** The default of {@link PgliteDatabaseOptions.statementTimeoutMs}. */
const DEFAULT_PGLITE_STATEMENT_TIMEOUT_MS = 60_000;

/** How long a clean close may take before the thread is terminated anyway. */
const CLOSE_TIMEOUT_MS = 30_000;

/**
 * PGlite (PostgreSQL compiled to WebAssembly), persistent in `dataDir`, run in a worker thread
 * of its own: this thread keeps answering (health checks, the memory-only paths, other requests'
 * JSON work) while a statement runs. A statement past its time limit stops the thread from
 * outside and fails with a `StatementTimeoutError` (SQLSTATE 57014, as a server's
 * `statement_timeout`); the next transaction starts a new thread on the same directory, which
 * recovers it as after a crash: every committed transaction kept. Transactions run one at a
 * time (PGlite has one connection). The directory is locked for this process first: PGlite does
 * not lock it.
 *
 * @example
 * ```ts
 * const db = await openPgliteDatabase('/var/lib/listkit'); // a second opener gets Refusal 'locked'
 * await db.transaction((tx) => tx.query('SELECT 1 AS one'));
 * ```
 */
export async function openPgliteDatabase(
  dataDir: string,
  options: PgliteDatabaseOptions = {},
): Promise<SqlDatabase> {
  const defaultTimeoutMs = options.statementTimeoutMs ?? DEFAULT_PGLITE_STATEMENT_TIMEOUT_MS;
  const release = lockDataDirectory(dataDir);
  let thread: Promise<PgliteThread> = PgliteThread.start(dataDir);
  try {
    await thread;
  } catch (error) {
    release();
    throw error;
  }
  let closed = false;
  /** The running thread, or a new one on the directory when the last was stopped. */
  const running = async (): Promise<PgliteThread> => {
    const current = await thread.catch(() => undefined);
    if (current && !current.stopped) return current;
    if (closed) throw new Error('the PGlite database is closed');
    thread = PgliteThread.start(dataDir);
    return thread;
  };
  // Transactions queue here, one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  const database: SqlDatabase = {
    kind: 'pglite',
    transaction: (work, settings = {}) =>
      serially(async () => {
        const timeoutMs = settings.statementTimeoutMs ?? defaultTimeoutMs;
        const db = await running();
        await db.query('BEGIN', [], timeoutMs);
        try {
          const result = await work({
            query: async (text, params = []) => (await db.query(text, params, timeoutMs)) as never,
          });
          await db.query('COMMIT', [], timeoutMs);
          return result;
        } catch (error) {
          // A stopped thread took its transaction with it: there is nothing to roll back.
          if (!db.stopped) await db.query('ROLLBACK', [], timeoutMs).catch(() => undefined);
          throw error;
        }
      }),
    // In-process: BEGIN and COMMIT cost no round trip, so one statement is a transaction of one.
    statement: (text, params = []) => database.transaction((tx) => tx.query(text, params)),
    // PGlite's exec runs the text as one simple query, under the same time limit as a statement.
    batch: async (statements, settings = {}) => {
      const text = batchText(statements);
      return serially(async () =>
        (await running()).script(text, settings.statementTimeoutMs ?? defaultTimeoutMs),
      );
    },
    batchedTransaction: (work, settings = {}) =>
      serially(async () => {
        const timeoutMs = settings.statementTimeoutMs ?? defaultTimeoutMs;
        const db = await running();
        return runBatchedTransaction(async (text) => {
          // A stopped thread took its transaction with it: there is nothing to roll back.
          if (text === 'ROLLBACK' && db.stopped) return [];
          return db.script(text, timeoutMs);
        }, work);
      }),
    outsideTransaction: (text) =>
      serially(async () => {
        await (await running()).query(text, [], defaultTimeoutMs, true);
      }),
    close: () =>
      serially(async () => {
        closed = true;
        try {
          const current = await thread.catch(() => undefined);
          await current?.close(CLOSE_TIMEOUT_MS);
        } finally {
          release();
        }
      }),
  };
  return database;
}
