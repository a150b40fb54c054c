// A worker thread of `listkit filter` (decision 96): reads the batches of NDJSON lines the main
// thread sends, each line as the main thread would (ndjson-line.ts), checks each record against
// the schema (given: checkResource; inferred: the guard), filters it, and answers with the
// matches. Whatever the main thread must decide itself (a type to widen, an error to report
// where it happens) stops the batch at that line: the main thread reads the rest.
import type { FieldRef, ResourceSchema } from '@listkit/query';
import { checkRecordAgainstSchema } from './check-record.js';
import { CliError } from './cli-error.js';
import { guardedFields, prepare, project, type Query } from './filter-query.js';
import { eachElement, readJsonElement } from './json-element.js';
import type { RecordOrigin } from './json-record-reader.js';
import { eachLine, readNdjsonLine } from './ndjson-line.js';
import { guardRecord, unreadableMessage } from './schema-guard.js';
import type { BatchRequest, BatchResult, WorkerMessage, WorkerSetup } from './worker-protocol.js';

/**
 * Answers batches until the main thread ends the thread (started with `FILTER_WORKER_ARG`).
 * False, having done nothing, on the main thread: the marker was typed on a command line, which
 * then goes on to be read (and refused) as any other.
 *
 * @example
 * ```ts
 * if (isFilterWorkerArgv(process.argv) && runFilterWorker()) return;
 * ```
 */
export function runFilterWorker(): boolean {
  // Loaded here, not at every start of the program (see worker-marker.ts).
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  if (parentPort === null) return false;
  const setup = workerData as WorkerSetup;
  let checker = new BatchChecker(setup, setup.schema, 0);
  parentPort.on('message', (message: WorkerMessage) => {
    if (message.kind === 'schema') {
      checker = new BatchChecker(setup, message.schema, message.generation);
    } else {
      const result = checker.read(message);
      parentPort.postMessage(result, [result.bytes.buffer as ArrayBuffer]);
    }
  });
  return true;
}

/** The query compiled against one generation of the schema, reading batches with it. */
class BatchChecker {
  private readonly query: Query;
  private readonly refs: FieldRef[];

  constructor(
    private readonly setup: WorkerSetup,
    private readonly schema: ResourceSchema,
    private readonly generation: number,
  ) {
    const choice = { schema, keyedByPosition: false };
    this.query = prepare(setup.filter, choice, setup.options, undefined) as Query;
    this.refs = setup.given ? [] : guardedFields(this.query);
  }

  read(batch: BatchRequest): BatchResult {
    const result: BatchResult = {
      id: batch.id,
      generation: this.generation,
      records: 0,
      count: 0,
      text: '',
      matches: [],
      reports: [],
      skipped: 0,
      bytes: batch.bytes,
    };
    const texts: string[] = [];
    const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.length);
    if (batch.spans) {
      eachElement(bytes, batch.spans, (element, origin, index) => {
        const read = readJsonElement(element, batch.file, origin);
        const where = { file: batch.file, ...origin };
        if (read.kind === 'record' && this.readRecord(read.record, where, result, texts)) {
          return true;
        }
        result.stop = { offset: index, line: origin.line };
        return false;
      });
    } else {
      eachLine(bytes, batch.line, (lineBytes, line, offset) => {
        if (this.readLine(lineBytes, batch.file, line, result, texts)) return true;
        result.stop = { offset, line };
        return false;
      });
    }
    result.text = texts.join('');
    return result;
  }

  /** One line into `result`; false: the main thread reads from this line on. */
  private readLine(
    bytes: Buffer,
    file: string,
    line: number,
    result: BatchResult,
    texts: string[],
  ): boolean {
    const { options } = this.setup;
    let read: ReturnType<typeof readNdjsonLine>;
    try {
      read = readNdjsonLine(bytes, file, line, options);
    } catch (error) {
      if (error instanceof CliError) return false;
      throw error;
    }
    if (read.kind === 'blank') return true;
    if (read.kind === 'problem') {
      if (!options.keepGoing) return false;
      result.reports.push(['line', read.message]);
      return true;
    }
    return this.readRecord(read.record, { file, line, column: 1 }, result, texts);
  }

  /** One record into `result`; false: the main thread reads from this record on. */
  private readRecord(
    read: object,
    origin: RecordOrigin,
    result: BatchResult,
    texts: string[],
  ): boolean {
    const { options } = this.setup;
    let record = read;
    if (this.setup.given) {
      try {
        record = checkRecordAgainstSchema(record, this.schema, origin, options.coerce === true);
      } catch (error) {
        if (error instanceof CliError) return false;
        throw error;
      }
    }
    if (this.refs.length > 0) {
      const verdict = guardRecord(record, this.refs, this.schema);
      if (verdict.kind === 'widen' || (verdict.kind === 'unreadable' && !options.keepGoing)) {
        return false;
      }
      if (verdict.kind === 'unreadable') {
        if (result.skipped++ === 0) {
          const where = `${origin.file}:${origin.line}:${origin.column}`;
          result.reports.push(['skip', unreadableMessage(verdict, where)]);
        }
        result.records++;
        return true;
      }
    }
    const position = result.records++;
    if (!this.query.filter.matches(record)) return true;
    result.count++;
    if (this.setup.answer === 'text') {
      texts.push(`${JSON.stringify(project(record, this.query.mask))}\n`);
    } else if (this.setup.answer === 'records') {
      result.matches.push([position, JSON.stringify(record)]);
    }
    return true;
  }
}
