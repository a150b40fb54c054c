// When one `listkit filter` run reads its NDJSON lines on worker threads (decision 96), and how
// their answers come back into the run: the reader hands whole lines over once the run has its
// query (the schema given, or inferred from the first records on the main thread) and the input
// is large enough to pay for starting the threads, or at once when --workers was given.
import type { ResourceSchema } from '@listkit/query';
import type { FilterOptions } from './filter-command.js';
import type { Query } from './filter-query.js';
import type { LineBatches } from './read-records.js';
import type { SchemaChoice } from './schema-choice.js';
import { type BatchReader, type LineBatch, WorkerPool } from './worker-pool.js';
import type { BatchResult, WorkerSetup } from './worker-protocol.js';

/**
 * Bytes of input read before worker threads start when --workers is not given: starting them
 * (a thread, the program compiled from its code cache, the filter compiled) costs more than
 * reading a smaller input on one thread.
 */
export const AUTO_WORKERS_FROM = 1024 * 1024;

/** What the batches need of the run (filter-command.ts's FilterRun). */
export interface BatchRun {
  readonly filter: string;
  readonly options: FilterOptions;
  readonly inferred: boolean;
  readonly direct: boolean;
  readonly choice: SchemaChoice | undefined;
  readonly query: Query | undefined;
  readonly printed: string | undefined;
  takeBatch(result: BatchResult): boolean;
  readLines(batch: LineBatch): boolean;
  flush(): Promise<void> | undefined;
}

/**
 * The run's side of the worker threads: the reader's {@link LineBatches}, the pool's
 * {@link BatchReader}.
 *
 * @example
 * ```ts
 * const batches = new FilterBatches(run);
 * await readRecords(file, sink, { ...options, lineBatches: batches });
 * await batches.close();
 * ```
 */
export class FilterBatches implements LineBatches, BatchReader {
  private pool: WorkerPool | undefined;
  private declined = false;

  constructor(private readonly run: BatchRun) {}

  takes(bytesRead: number): boolean {
    if (this.pool) return true;
    const { options, query, printed } = this.run;
    if (this.declined || options.workers < 2 || options.workerScript === undefined) return false;
    if (!query || printed !== undefined) return false;
    if (!options.workersGiven && bytesRead < AUTO_WORKERS_FROM) return false;
    try {
      this.pool = new WorkerPool(options.workers, options.workerScript, this.setup(), this);
    } catch {
      // A schema the threads cannot be sent (structured clone): this thread reads alone.
      this.declined = true;
      return false;
    }
    return true;
  }

  private setup(): WorkerSetup {
    const { filter, options, inferred, direct, choice } = this.run;
    return {
      filter,
      options,
      schema: choice!.schema,
      given: !inferred,
      answer: options.output === 'count' ? 'count' : direct ? 'text' : 'records',
    };
  }

  submit(batch: LineBatch): void {
    this.pool!.submit(batch);
  }

  room(): Promise<boolean> | undefined {
    return this.pool?.room();
  }

  drained(): Promise<boolean> {
    return this.pool ? this.pool.drained() : Promise.resolve(true);
  }

  unlessHalted<T>(next: Promise<T>): Promise<T | false> {
    return this.pool ? this.pool.unlessHalted(next) : next;
  }

  /** The run widened its schema: lines sent from now on are read with it. */
  schemaChanged(schema: ResourceSchema): void {
    this.pool?.setSchema(schema);
  }

  take(result: BatchResult): boolean {
    return this.run.takeBatch(result);
  }

  readHere(batch: LineBatch): boolean {
    return this.run.readLines(batch);
  }

  flush(): Promise<void> | undefined {
    return this.run.flush();
  }

  /** Ends the threads (at the run's end, or its error). */
  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }
}
