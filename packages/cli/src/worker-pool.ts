// The worker threads of one `listkit filter` run and the batches of NDJSON lines they read
// (decision 96). Batches go to the least busy thread; their answers are read in input order, a
// batch only once every earlier one has been read and its matches written, so the output is the
// one the main thread alone would write. At most `maxInFlight` batches are out at once: the
// reading waits for room (memory stays bounded, and a slow reader of stdout slows the reading).
import type { Worker } from 'node:worker_threads';
import type { ResourceSchema } from '@listkit/query';
import { CliError, EXIT } from './cli-error.js';
import { FILTER_WORKER_ARG } from './worker-marker.js';
import type { BatchResult, WorkerSetup } from './worker-protocol.js';

/** Whole lines, as the reader hands them over. */
export interface LineBatch {
  bytes: Buffer;
  file: string;
  /** The first line's number. */
  line: number;
  /** Line breaks in `bytes` (elements: the lines they span). */
  lines: number;
  /**
   * Elements of a JSON array instead of lines: four numbers an element (its start and end in
   * `bytes`, the line and column it began at).
   */
  spans?: number[];
}

/** How the run reads the answers, in input order. */
export interface BatchReader {
  /** A worker's answer for `batch`. False: stop reading (the page is complete). Throws the run's error. */
  take(result: BatchResult, batch: LineBatch): boolean;
  /** Reads `batch` on this thread (an answer for an older schema, or the rest after a stop). */
  readHere(batch: LineBatch): boolean;
  /** Writes what the answers read so far matched; a promise while stdout cannot take more. */
  flush(): Promise<void> | undefined;
}

/** The least a batch's buffer holds, so that one buffer serves most batches. */
const SPARE_BYTES = 256 * 1024;

interface Slot {
  id: number;
  batch: LineBatch;
  generation: number;
  result?: BatchResult;
  failure?: Error;
}

interface PoolWorker {
  thread: Worker;
  outstanding: Slot[];
  dead: boolean;
}

/**
 * Worker threads reading batches of lines.
 *
 * @example
 * ```ts
 * const pool = new WorkerPool(2, script, setup, reader);
 * pool.submit({ bytes, file: 'in.ndjson', line: 2, lines: 500 });
 * await pool.room();
 * await pool.drained();
 * await pool.close();
 * ```
 */
export class WorkerPool {
  private readonly workers: PoolWorker[];
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private generation = 0;
  private writing = false;
  private stopped = false;
  private error: unknown;
  private waiters = new Set<() => boolean>();
  /** Buffers of batches read, for the next ones. */
  private readonly spare: ArrayBuffer[] = [];
  readonly maxInFlight: number;

  constructor(
    size: number,
    script: string | URL,
    setup: WorkerSetup,
    private readonly reader: BatchReader,
  ) {
    this.maxInFlight = 2 * size + 2;
    this.workers = Array.from({ length: size }, () => this.start(script, setup));
  }

  private start(script: string | URL, setup: WorkerSetup): PoolWorker {
    // Node's flags (--max-old-space-size among them) apply to the thread as to this one; a young
    // generation of 4 MiB (not 16-32) saves some 13 MiB of RSS a thread at no cost measured here.
    const { Worker: WorkerThread } = process.getBuiltinModule('node:worker_threads');
    const thread: Worker = new WorkerThread(script, {
      argv: [FILTER_WORKER_ARG],
      workerData: setup,
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    const worker: PoolWorker = { thread, outstanding: [], dead: false };
    thread.on('message', (result: BatchResult) => {
      const slot = worker.outstanding.shift();
      if (slot) {
        slot.result = result;
        // The bytes came back with the answer: read here if need be, then sent again.
        const { buffer, byteOffset, length } = result.bytes;
        slot.batch = { ...slot.batch, bytes: Buffer.from(buffer, byteOffset, length) };
      }
      this.pump();
    });
    const fail = (error: Error) => {
      if (worker.dead) return;
      worker.dead = true;
      for (const slot of worker.outstanding) slot.failure = error;
      worker.outstanding = [];
      this.pump();
    };
    thread.on('error', fail);
    thread.on('messageerror', fail);
    thread.on('exit', (code) => fail(new Error(`it exited with status ${code}`)));
    return worker;
  }

  /** Sends the widened schema: batches sent from now on are read with it. */
  setSchema(schema: ResourceSchema): void {
    this.generation++;
    for (const worker of this.workers) {
      if (!worker.dead)
        worker.thread.postMessage({ kind: 'schema', generation: this.generation, schema });
    }
  }

  /** Sends `batch` to the least busy worker. */
  submit(batch: LineBatch): void {
    const live = this.workers.filter((w) => !w.dead);
    const worker = live.reduce<PoolWorker | undefined>(
      (a, b) => (a === undefined || b.outstanding.length < a.outstanding.length ? b : a),
      undefined,
    );
    const slot: Slot = { id: this.nextId++, batch, generation: this.generation };
    this.slots.push(slot);
    if (!worker) {
      // Every thread failed: the first failure is reported when its batch's turn comes.
      slot.failure = new Error('no worker thread is left');
      this.pump();
      return;
    }
    worker.outstanding.push(slot);
    // A copy in a buffer of the batches' own, moved to the thread and back with the answer (a
    // view of the chunk would clone its whole buffer, and fresh buffers keep the GC busy).
    const bytes = this.copyOf(batch.bytes);
    worker.thread.postMessage(
      {
        kind: 'batch',
        id: slot.id,
        file: batch.file,
        line: batch.line,
        bytes,
        ...(batch.spans ? { spans: batch.spans } : {}),
      },
      [bytes.buffer as ArrayBuffer],
    );
  }

  private copyOf(bytes: Buffer): Uint8Array {
    const at = this.spare.findIndex((buffer) => buffer.byteLength >= bytes.length);
    const buffer =
      at >= 0 ? this.spare.splice(at, 1)[0]! : new ArrayBuffer(Math.max(bytes.length, SPARE_BYTES));
    const copy = new Uint8Array(buffer, 0, bytes.length);
    copy.set(bytes);
    return copy;
  }

  /** Undefined when another batch may be sent now; else resolves when it may (false: stop). */
  room(): Promise<boolean> | undefined {
    if (this.slots.length < this.maxInFlight && !this.stopped && this.error === undefined) {
      return undefined;
    }
    return this.until(() => this.slots.length < this.maxInFlight);
  }

  /** Resolves when every batch sent has been read and written: true, or false (stop). */
  drained(): Promise<boolean> {
    return this.until(() => this.slots.length === 0 && !this.writing);
  }

  /**
   * What `next` settles with, unless the answers stop the reading first (false, or their error):
   * a reading waiting for a stalled input does not hold a complete page or an error back.
   */
  unlessHalted<T>(next: Promise<T>): Promise<T | false> {
    return new Promise<T | false>((resolve, reject) => {
      // Never ready: it settles only when halted (false, or the error).
      const check = this.checker(
        () => false,
        () => resolve(false),
        reject,
      );
      if (check()) return;
      this.waiters.add(check);
      next.then(
        (value) => {
          this.waiters.delete(check);
          resolve(value);
        },
        (error: unknown) => {
          this.waiters.delete(check);
          reject(error);
        },
      );
    });
  }

  private until(ready: () => boolean): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const check = this.checker(ready, resolve, reject);
      if (!check()) this.waiters.add(check);
    });
  }

  /** A check that settles a waiting promise (true once it did), run again at every wake. */
  private checker(
    ready: () => boolean,
    resolve: (value: boolean) => void,
    reject: (error: unknown) => void,
  ): () => boolean {
    return () => {
      if (this.error !== undefined) reject(this.error);
      else if (this.stopped) resolve(false);
      else if (ready()) resolve(true);
      else return false;
      return true;
    };
  }

  private wake(): void {
    for (const check of this.waiters) if (check()) this.waiters.delete(check);
  }

  /** Reads the answers that have arrived, in input order, while stdout takes what they match. */
  private pump(): void {
    try {
      while (!this.writing && !this.stopped && this.error === undefined) {
        const slot = this.slots[0];
        if (!slot || (slot.result === undefined && slot.failure === undefined)) break;
        this.slots.shift();
        const more = this.read(slot);
        if (slot.result && this.spare.length < this.maxInFlight) {
          this.spare.push(slot.batch.bytes.buffer as ArrayBuffer);
        }
        if (!more) {
          this.stop(false);
          break;
        }
        const wait = this.reader.flush();
        if (wait) {
          this.writing = true;
          wait.then(
            () => {
              this.writing = false;
              this.pump();
            },
            (error: unknown) => this.stop(true, error),
          );
        }
      }
    } catch (error) {
      this.stop(true, error);
    }
    this.wake();
  }

  /** One slot's answer: its matches, then (after a stop) the rest of its lines read here. */
  private read(slot: Slot): boolean {
    const { batch } = slot;
    if (slot.failure) throw failed(batch, slot.failure);
    const result = slot.result!;
    if (result.generation !== this.generation) return this.reader.readHere(batch);
    if (!this.reader.take(result, batch)) return false;
    if (!result.stop) return true;
    if (batch.spans) {
      // Elements: the stop's offset is the element's index.
      const spans = batch.spans.slice(result.stop.offset * 4);
      return this.reader.readHere({ ...batch, spans, line: result.stop.line });
    }
    const rest = batch.bytes.subarray(result.stop.offset);
    const skipped = result.stop.line - batch.line;
    return this.reader.readHere({
      bytes: rest,
      file: batch.file,
      line: result.stop.line,
      lines: batch.lines - skipped,
    });
  }

  private stop(failed: boolean, error?: unknown): void {
    if (failed) this.error = error;
    else this.stopped = true;
    this.wake();
  }

  /** Ends every thread (batches still out are dropped). */
  async close(): Promise<void> {
    this.stopped = true;
    await Promise.all(
      this.workers.map((worker) => {
        worker.dead = true;
        return worker.thread.terminate();
      }),
    );
  }
}

/** The located error of a worker that failed (ran out of memory, or broke) on `batch`. */
function failed(batch: LineBatch, error: Error): CliError {
  const last = batch.line + Math.max(0, batch.lines - 1);
  const lines = last === batch.line ? `line ${batch.line}` : `lines ${batch.line}–${last}`;
  return new CliError(
    `${batch.file}:${batch.line}: a worker thread failed reading ${lines} (${error.message}); --workers 1 reads on the main thread alone`,
    EXIT.input,
  );
}
