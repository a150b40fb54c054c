// Reads resources from files or stdin: NDJSON (line by line), a JSON array (element by element),
// or a JSON object holding the array (a list response's `items`, an AIP-style plural field, or
// --items PATH), each in time linear in its size and holding one record at a time (see
// json-record-reader.ts). Gzip is recognised by its magic bytes, whatever the file is called, and
// inflated as a stream.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { CliError, EXIT } from './cli-error.js';
import type { InputLimits } from './input-limits.js';
import {
  JsonRecordReader,
  type LineBatchSink,
  METADATA_KEY,
  type RecordSink,
} from './json-record-reader.js';

export type { RecordOrigin, RecordSink } from './json-record-reader.js';

export interface ReadOptions {
  /** Path of the array inside a JSON document (`items`, `data.results`). */
  itemsPath?: string;
  /** Report malformed NDJSON lines through `onBadLine` and go on. */
  keepGoing: boolean;
  onBadLine: (message: string) => void;
  limits: InputLimits;
  /**
   * Called after each chunk's records went to the sink; a promise it returns is awaited before
   * the next chunk is read (backpressure: a slow reader of the output slows the reading).
   */
  afterChunk?: () => Promise<void> | undefined;
  /** Where NDJSON lines go to be read by worker threads (worker-pool.ts), once it takes them. */
  lineBatches?: LineBatches;
}

/** Batches of NDJSON lines read elsewhere, and how the reading waits for them. */
export interface LineBatches extends LineBatchSink {
  /** Undefined: read on now; else resolves when the next chunk may be read (false: stop). */
  room(): Promise<boolean> | undefined;
  /** Resolves when every batch sent has been read (false: stop); rejects with their error. */
  drained(): Promise<boolean>;
  /**
   * What `next` settles with, unless the batches stop the reading first (false: a complete page;
   * or their error): the reading does not wait for a stalled input then.
   */
  unlessHalted<T>(next: Promise<T>): Promise<T | false>;
}

/**
 * Feeds every record of `file` (`-` for stdin) to `sink`, in order. Returns false when the sink
 * asked to stop. Throws CliError(EXIT.input) naming the file, line and column of malformed input.
 */
export async function readRecords(
  file: string,
  sink: RecordSink,
  options: ReadOptions,
): Promise<boolean> {
  const name = file === '-' ? '<stdin>' : file;
  let raw: Readable;
  try {
    raw = file === '-' ? process.stdin : await openFile(file);
  } catch (error) {
    throw new CliError(`${name}: ${(error as Error).message}`, EXIT.input);
  }
  const itemsPath = options.itemsPath;
  const reader = new JsonRecordReader(name, sink, {
    ...(itemsPath !== undefined && !itemsPath.includes('.') ? { itemsKey: itemsPath } : {}),
    keepGoing: options.keepGoing,
    onBadLine: options.onBadLine,
    limits: options.limits,
    recordsOf: (value, where) => recordsOf(value, where, itemsPath),
    ...(options.lineBatches ? { lineBatches: options.lineBatches } : {}),
  });
  const batches = options.lineBatches;
  let finished = false;
  try {
    const chunks = decompressed(raw, name);
    for (;;) {
      const next = batches ? await batches.unlessHalted(chunks.next()) : await chunks.next();
      if (next === false) return false;
      if (next.done) break;
      if (!reader.push(next.value)) return false;
      const wait = options.afterChunk?.();
      if (wait) await wait;
      const room = batches?.room();
      if (room && !(await room)) return false;
    }
    reader.end();
    finished = true;
    return batches ? await batches.drained() : true;
  } catch (error) {
    // An error found here (a line past the bound, gzip that breaks off) comes after every line
    // sent to the worker threads: their matches are written first, and their own error, or
    // the page they complete, comes before this one.
    if (batches && !(await batches.drained())) return false;
    throw error;
  } finally {
    // Stdin too when the reading stopped early: a read still waiting on it (the worker threads
    // ended the run while stdin stalled) must not keep the process alive.
    if (file !== '-' || !finished) raw.destroy();
  }
}

/** The array of records a JSON document holds. */
function recordsOf(value: unknown, where: string, itemsPath: string | undefined): unknown[] {
  if (itemsPath !== undefined) {
    let node = value;
    for (const step of itemsPath.split('.')) {
      node =
        node !== null && typeof node === 'object'
          ? (node as Record<string, unknown>)[step]
          : undefined;
    }
    if (!Array.isArray(node))
      throw new CliError(`${where}: --items ${itemsPath} is not an array`, EXIT.input);
    return node;
  }
  const object = value as Record<string, unknown>;
  if (Array.isArray(object.items)) return object.items;
  // An AIP-style list response: its one array of objects is the resource plural (`books`).
  const arrays = Object.entries(object).filter(
    ([, v]) =>
      Array.isArray(v) &&
      v.length > 0 &&
      v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x)),
  );
  if (
    arrays.length === 1 &&
    Object.keys(object).every((k) => k === arrays[0]![0] || METADATA_KEY.test(k))
  ) {
    return arrays[0]![1] as unknown[];
  }
  if ('nextPageToken' in object && Object.values(object).every((v) => !Array.isArray(v))) return [];
  return [object];
}

async function openFile(path: string): Promise<Readable> {
  // Chunks of 256 KiB: each is a batch of lines for the worker threads, and fewer, larger
  // batches cost less to hand over than 64 KiB ones.
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return stream;
}

/** The stream's bytes, gunzipped (as a stream) when they start with gzip's magic bytes. */
async function* decompressed(raw: Readable, file: string): AsyncGenerator<Buffer> {
  const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = await iterator.next();
  if (head.done) return;
  let first: Buffer = head.value;
  while (first.length < 2) {
    head = await iterator.next();
    if (head.done) break;
    first = Buffer.concat([first, head.value]);
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield first;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (first[0] !== 0x1f || first[1] !== 0x8b) {
    yield* rest();
    return;
  }
  // Loaded for gzip only: node:zlib is a few milliseconds of every other run's start-up. (Not
  // `import()`, which the script bundle run from the code cache cannot do.)
  const { createGunzip } = process.getBuiltinModule('node:zlib');
  const gunzip = Readable.from(rest()).pipe(createGunzip());
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    throw new CliError(`${file}: not valid gzip: ${(error as Error).message}`, EXIT.input);
  } finally {
    gunzip.destroy();
  }
}
