// `listkit filter`: Google-style list filters over any JSON, from files or stdin.
import {
  type FieldMask,
  type FieldRef,
  ListkitError,
  type PageTokenBinding,
  PageTokenCodec,
  type ResourceSchema,
  type SchemaWarning,
  type SortKey,
} from '@listkit/query';
import type { SqlDialectName } from '@listkit/query/sql';
import { checkRecordAgainstSchema } from './check-record.js';
import { CliError, EXIT } from './cli-error.js';
import { FilterBatches } from './filter-batches.js';
import { guardedFields, loadSqlPlanner, prepare, project, type Query } from './filter-query.js';
import { eachElement, readJsonElement } from './json-element.js';
import { eachLine, lineProblem, readNdjsonLine } from './ndjson-line.js';
import { OutputBuffer } from './output-buffer.js';
import { type RecordOrigin, readRecords } from './read-records.js';
import { maskColumns, renderTable } from './render-table.js';
import {
  numberRecord,
  type SchemaChoice,
  schemaFromFile,
  schemaFromSample,
} from './schema-choice.js';
import { describeValue, guardRecord, unreadableMessage } from './schema-guard.js';
import { StreamOutput } from './stream-output.js';
import type { LineBatch } from './worker-pool.js';
import type { BatchResult } from './worker-protocol.js';

export { project } from './filter-query.js';

export type OutputFormat = 'json' | 'ndjson' | 'table' | 'count';

export interface FilterOptions {
  orderBy?: string;
  pageSize?: number;
  pageToken?: string;
  schema?: string;
  message?: string;
  key?: string;
  items?: string;
  output: OutputFormat;
  /**
   * `--fields`: what of each match to print, in the syntax of the `fields` system parameter and
   * AIP-161 paths (`name,labels.env`, `name,labels(env,team)`), read by `compileFieldMask`.
   */
  fields?: string;
  explain: boolean;
  sql: boolean;
  /** The SQL dialect `--sql` plans for (default PostgreSQL). */
  sqlDialect?: SqlDialectName;
  printSchema: boolean;
  keepGoing: boolean;
  /** Convert the shapes other tools write when checking records against --schema. */
  coerce?: boolean;
  /** Hold every match until the whole input is known good (the temporary-file spill). */
  atomic: boolean;
  /** Records read to infer a schema at most (fewer: what has arrived when the reader waits). */
  sampleSize: number;
  /** The longest record or NDJSON line read, in bytes. */
  maxRecordBytes: number;
  /** The deepest nesting of arrays and objects read. */
  maxDepth: number;
  /**
   * Threads that read NDJSON lines: 1 reads on the main thread alone; more start worker threads
   * (decision 96), at once when `workersGiven`, else once an input has shown more than
   * `AUTO_WORKERS_FROM` bytes.
   */
  workers: number;
  workersGiven: boolean;
  /** The module a worker thread starts from (the program's own entry); none: no workers. */
  workerScript?: string;
}

export interface Io {
  write(chunk: string | Buffer): Promise<void>;
  error(line: string): void;
}

/** `--output count` counts every match: it takes no page. */
function refuseCountedPages(options: FilterOptions): void {
  if (
    options.output === 'count' &&
    (options.pageSize !== undefined || options.pageToken !== undefined)
  ) {
    throw new CliError(
      '--output count counts every match: it takes no --page-size or --page-token',
      EXIT.usage,
    );
  }
}

/**
 * The page-token binding and codec of a paged run, and the cursor of `--page-token`. Page tokens
 * are bound to the filter, the orderBy as written and the inputs, and opened before any input is
 * read.
 */
async function openPaging(filter: string, inputs: string[], options: FilterOptions) {
  const binding = {
    filter,
    orderBy: options.orderBy ?? '',
    parent: `listkit filter ${inputs.join(' ')}`,
  };
  const paging = options.pageSize !== undefined || options.pageToken !== undefined;
  // The secrets (and node:crypto, which makes them) are loaded only for a paged run.
  const secrets = paging ? (await import('./page-token-secret.js')).pageTokenSecrets() : undefined;
  const codec = secrets ? await PageTokenCodec.create({ secrets }) : undefined;
  const cursorKey =
    options.pageToken === undefined
      ? undefined
      : await codec!.open(options.pageToken, binding).catch((error: unknown) => {
          if (!(error instanceof ListkitError)) throw error;
          // The library speaks of an API's parent; a CLI user has files.
          const message =
            error.code === 'page_token_query_mismatch'
              ? 'the page token belongs to a different listing: the filter, --order-by and files must stay the same while paging'
              : error.message;
          throw new CliError(`--page-token: ${message}`, EXIT.usage);
        });
  return { binding, paging, codec, cursorKey };
}

/** Runs one `listkit filter`; resolves with the exit status. */
export async function runFilter(
  filter: string,
  files: string[],
  options: FilterOptions,
  io: Io,
): Promise<number> {
  refuseCountedPages(options);
  // The SQL planner is loaded only for --sql: the other runs start without it.
  if (options.sql) await loadSqlPlanner();
  const warn = (w: SchemaWarning) =>
    io.error(`listkit: warning: schema: ${w.at}: ${w.message} (left out)`);
  const inputs = files.length > 0 ? files : ['-'];
  const given = options.schema
    ? await schemaFromFile(options.schema, { key: options.key, message: options.message }, warn)
    : undefined;
  const paging = await openPaging(filter, inputs, options);
  const run = new FilterRun(filter, options, io, paging.cursorKey, warn);
  if (given) run.begin(given);
  try {
    await run.readAll(inputs);
  } catch (error) {
    await run.batches.close();
    // Streaming, the matches of the records read before the error are written; --atomic
    // writes nothing.
    if (run.output instanceof StreamOutput) {
      // Records still in the sample were read before the error too: they are matched and
      // written (a problem with the filter itself gives way to the input's error).
      try {
        run.tryBegin(true);
      } catch {
        run.output.discard();
      }
      await run.output.flush();
    } else {
      run.output.discard();
    }
    throw error;
  }
  await run.batches.close();
  return run.finish(paging);
}

/**
 * The state of one run: the schema (given, or inferred from the first records as they arrive),
 * the compiled query, and where matches go: straight to stdout as each chunk of input is read
 * (the default in input order), into the page (with --order-by or paging), or held back until
 * the whole input is known good (--atomic).
 */
class FilterRun {
  choice: SchemaChoice | undefined;
  query: Query | undefined;
  printed: string | undefined;
  sample: { record: object; origin: RecordOrigin; position: number }[] = [];
  position = 0;
  count = 0;
  skipped = 0;
  refs: FieldRef[] = [];
  readonly batches: FilterBatches;
  readonly widened = new Set<string>();
  readonly inferred: boolean;
  /** Matches in input order, not held for a page. */
  readonly direct: boolean;
  /** Matches are written as the input is read (not held until it is known good). */
  readonly streaming: boolean;
  /** --print-schema, --explain and --sql read the whole sample before deciding. */
  readonly eager: boolean;
  readonly output: OutputBuffer | StreamOutput;

  constructor(
    readonly filter: string,
    readonly options: FilterOptions,
    readonly io: Io,
    readonly cursorKey: SortKey | undefined,
    readonly warn: (w: SchemaWarning) => void,
  ) {
    const paged = options.pageSize !== undefined || options.pageToken !== undefined;
    this.inferred = options.schema === undefined;
    this.direct =
      !options.orderBy && !paged && (options.output === 'ndjson' || options.output === 'json');
    this.streaming = this.direct && !options.atomic;
    this.eager = !(options.printSchema || options.explain || options.sql);
    this.output = this.streaming ? new StreamOutput(io.write) : new OutputBuffer();
    this.batches = new FilterBatches(this);
  }

  /** Compiles the filter against `choice`; replays the sample read so far. */
  begin(choice: SchemaChoice): void {
    this.choice = choice;
    const prepared = prepare(this.filter, choice, this.options, this.cursorKey);
    if (typeof prepared === 'string') {
      this.printed = prepared;
      return;
    }
    this.query = prepared;
    this.refs = this.inferred ? guardedFields(prepared) : [];
  }

  /**
   * Infers a schema from the records read so far and begins. A filter naming a field no record
   * has shown yet waits for more records, up to --sample-size (or the input's end).
   */
  tryBegin(final: boolean): boolean {
    if (this.query || this.printed !== undefined || this.sample.length === 0) return true;
    // Warnings wait until this sample is the one used (a later, larger one may not have them).
    const warnings: SchemaWarning[] = [];
    const choice = schemaFromSample(
      this.sample.map((s) => s.record),
      this.options.key,
      (warning) => warnings.push(warning),
      { numbersAsDoubles: true },
    );
    try {
      this.begin(choice);
    } catch (error) {
      const waiting =
        !final && error instanceof CliError && /unknown field|has no field/.test(error.message);
      if (waiting) return true;
      for (const warning of warnings) this.warn(warning);
      throw error;
    }
    for (const warning of warnings) this.warn(warning);
    if (this.printed !== undefined) return false;
    const held = this.sample;
    this.sample = [];
    return held.every(({ record, origin, position }) => this.take(record, origin, position));
  }

  /** Checks one record; false when the page is complete. */
  take(record: object, origin: RecordOrigin, at: number): boolean {
    if (this.refs.length > 0 && !this.guard(record, origin)) return true;
    // After the guard: a widened type compiles the filter and order again.
    const q = this.query!;
    if (this.choice!.keyedByPosition) numberRecord(record, at);
    if (!q.filter.matches(record)) return true;
    if (this.options.output === 'count') {
      this.count++;
      return true;
    }
    if (this.direct) {
      this.emit(JSON.stringify(project(record, q.mask)));
      return true;
    }
    this.count++;
    return q.selection.offer(record, at);
  }

  /** Writes one match of a direct run: its JSON line. */
  emit(line: string): void {
    this.count++;
    if (this.options.output === 'ndjson') this.output.write(`${line}\n`);
    else this.output.write(`${this.count === 1 ? '{\n  "items": [\n' : ',\n'}    ${line}`);
  }

  /**
   * A worker's answer for a batch of lines (worker-pool.ts), read in input order as the lines
   * themselves would be: its reports, positions, count and matches. False: the page is complete.
   */
  takeBatch(result: BatchResult): boolean {
    for (const [kind, message] of result.reports) {
      if (kind === 'line') this.io.error(message);
      else if (this.skipped === 0) this.io.error(`listkit: ${message} (skipped; --keep-going)`);
    }
    this.skipped += result.skipped;
    const base = this.position;
    this.position += result.records;
    if (this.options.output === 'count') {
      this.count += result.count;
    } else if (this.direct && this.options.output === 'ndjson') {
      this.count += result.count;
      this.output.write(result.text);
    } else if (this.direct) {
      for (const line of result.text.split('\n')) if (line !== '') this.emit(line);
    } else {
      for (const [at, text] of result.matches) {
        const record = JSON.parse(text) as object;
        if (this.choice!.keyedByPosition) numberRecord(record, base + at);
        this.count++;
        if (!this.query!.selection.offer(record, base + at)) return false;
      }
    }
    return true;
  }

  /** Reads whole NDJSON lines on this thread, as the reader does. False: stop reading. */
  readLines(batch: LineBatch): boolean {
    if (batch.spans) {
      return eachElement(batch.bytes, batch.spans, (bytes, origin) => {
        const read = readJsonElement(bytes, batch.file, origin);
        if (read.kind === 'problem') throw new CliError(read.message, EXIT.input);
        return this.record(read.record, { file: batch.file, ...origin });
      });
    }
    return eachLine(batch.bytes, batch.line, (bytes, line) => {
      const read = readNdjsonLine(bytes, batch.file, line, this.options);
      if (read.kind === 'record')
        return this.record(read.record, { file: batch.file, line, column: 1 });
      if (read.kind === 'problem') lineProblem(read.message, this.options.keepGoing, this.io.error);
      return true;
    });
  }

  /** A record read from the input (the reader's sink): checked, sampled or taken. */
  record(read: object, origin: RecordOrigin): boolean {
    const record =
      this.options.schema !== undefined
        ? checkRecordAgainstSchema(read, this.choice!.schema, origin, this.options.coerce === true)
        : read;
    const at = this.position++;
    if (this.query) return this.take(record, origin, at);
    if (this.printed !== undefined) return false;
    this.sample.push({ record, origin, position: at });
    return this.sample.length < this.options.sampleSize || this.tryBegin(true);
  }

  /**
   * The inferred schema against a record, at the fields the filter reads and those --order-by
   * sorts by: widens it (once per field, said on stderr) or reports a value it cannot read
   * (skipped and counted with --keep-going). False: skip the record.
   */
  guard(record: object, origin: RecordOrigin): boolean {
    for (;;) {
      const verdict = guardRecord(record, this.refs, this.choice!.schema);
      if (verdict.kind === 'ok') return true;
      const where = `${origin.file}:${origin.line}:${origin.column}`;
      const holds = `${where}: field '${verdict.ref.path}' holds ${describeValue(verdict.value)}`;
      if (verdict.kind === 'unreadable') return this.unreadable(unreadableMessage(verdict, where));
      if (!this.widen(verdict.schema, verdict.ref.path)) {
        return this.unreadable(
          `${holds}: read as ${verdict.to} (was ${verdict.from}), it could sort before matches --order-by has already passed over; give --schema`,
        );
      }
      if (!this.widened.has(verdict.ref.path)) {
        this.widened.add(verdict.ref.path);
        this.io.error(
          `listkit: notice: schema: field '${verdict.ref.path}' holds ${describeValue(verdict.value)} at ${where}: read as ${verdict.to} (was ${verdict.from}) from here on`,
        );
      }
    }
  }

  /** An error, or with --keep-going a skipped record (the first said on stderr). */
  unreadable(message: string): false {
    if (!this.options.keepGoing) throw new CliError(message, EXIT.input);
    if (this.skipped++ === 0) this.io.error(`listkit: ${message} (skipped; --keep-going)`);
    return false;
  }

  /**
   * Compiles the filter and order again over the widened `schema`, keeping the matches selected
   * so far (re-sorted when `path` is an --order-by field). False, and nothing changed, when the
   * page has already passed over matches the new order might keep.
   */
  widen(schema: ResourceSchema, path: string): boolean {
    const previous = { choice: this.choice, query: this.query!, refs: this.refs };
    this.begin({ ...this.choice!, schema });
    const sorted = previous.query.order?.keyTerms.some((term) => term.path === path);
    const selection = sorted
      ? previous.query.selection.reorder(this.query!.order!)
      : previous.query.selection;
    if (selection) {
      this.query!.selection = selection;
      this.batches.schemaChanged(schema);
      return true;
    }
    Object.assign(this, previous);
    return false;
  }

  async readAll(inputs: string[]): Promise<void> {
    const limits = { maxRecordBytes: this.options.maxRecordBytes, maxDepth: this.options.maxDepth };
    for (const file of inputs) {
      if (this.printed !== undefined) break;
      const more = await readRecords(file, (read, origin) => this.record(read, origin), {
        itemsPath: this.options.items,
        keepGoing: this.options.keepGoing,
        onBadLine: this.io.error,
        limits,
        afterChunk: () => {
          if (this.eager && !this.query) this.tryBegin(false);
          return this.flush();
        },
        lineBatches: this.batches,
      });
      if (!more) break;
    }
    if (!this.query && this.printed === undefined) {
      if (this.sample.length === 0) {
        if (this.options.printSchema || this.options.explain || this.options.sql) {
          throw new CliError('no records to infer a schema from; give --schema', EXIT.usage);
        }
      } else {
        this.tryBegin(true);
      }
    }
  }

  /** Writes the matches gathered so far (streaming); a promise while stdout cannot take more. */
  flush(): Promise<void> | undefined {
    return this.output instanceof StreamOutput ? this.output.flush() : undefined;
  }

  async finish(paging: Awaited<ReturnType<typeof openPaging>>): Promise<number> {
    const { io, options, output } = this;
    if (this.skipped > 0) {
      io.error(
        `listkit: ${this.skipped} record(s) skipped: a field the filter reads held a value its inferred type cannot read`,
      );
    }
    if (this.printed !== undefined) {
      await io.write(this.printed);
      return EXIT.ok;
    }
    if (this.direct) {
      if (options.output === 'json') {
        output.write(this.count === 0 ? '{\n  "items": []\n}\n' : '\n  ]\n}\n');
      }
      if (output instanceof StreamOutput) await output.flush();
      else await output.drainTo(io.write);
      return EXIT.ok;
    }
    await writeSelection(this.query, { ...paging, count: this.count }, options, io);
    return EXIT.ok;
  }
}

/** Writes the page the selection kept, sealing a next-page token after its last item. */
async function writeSelection(
  query: Query | undefined,
  run: { codec: PageTokenCodec | undefined; binding: PageTokenBinding; count: number },
  options: FilterOptions,
  io: Io,
): Promise<void> {
  const { codec, binding, count } = run;
  const { items, more } = query ? query.selection.result() : { items: [], more: false };
  let nextPageToken: string | undefined;
  if (more && items.length > 0) {
    const last = items[items.length - 1]!;
    nextPageToken = await codec!.seal([...last.key, last.position], binding);
  }
  await finish(
    options,
    query?.mask,
    items.map((i) => i.record),
    nextPageToken,
    count,
    io,
  );
}

async function finish(
  options: FilterOptions,
  mask: FieldMask | undefined,
  records: object[],
  nextPageToken: string | undefined,
  count: number,
  io: Io,
): Promise<void> {
  const output = new OutputBuffer();
  const shown = records.map((r) => project(r, mask));
  switch (options.output) {
    case 'count':
      output.write(`${count}\n`);
      break;
    case 'json':
      output.write(
        `${JSON.stringify({ items: shown, ...(nextPageToken ? { nextPageToken } : {}) }, null, 2)}\n`,
      );
      break;
    case 'ndjson':
      for (const record of shown) output.write(`${JSON.stringify(record)}\n`);
      break;
    case 'table':
      output.write(renderTable(shown, mask && maskColumns(mask.source)));
      break;
  }
  await output.drainTo(io.write);
  if (nextPageToken && options.output !== 'json') io.error(`nextPageToken: ${nextPageToken}`);
}
