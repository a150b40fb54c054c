// How a thread of the `listkit` program knows it is one of `listkit filter`'s worker threads
// (decision 96) without loading `node:worker_threads` at every start: the pool starts each
// thread with this argument after the program's path. A command line may begin with it too:
// runFilterWorker then finds no parent port and the command line is read (and refused) as usual.

/** The argument a filter worker thread is started with (`process.argv[2]`). */
export const FILTER_WORKER_ARG = '--listkit-filter-worker-thread';

/**
 * Whether `argv` (`process.argv`) is a filter worker thread's.
 *
 * @example
 * ```ts
 * if (!isFilterWorkerArgv(process.argv)) writeCodeCache();
 * ```
 */
export function isFilterWorkerArgv(argv: readonly string[]): boolean {
  return argv[2] === FILTER_WORKER_ARG;
}
