// `listkit filter`: Google-style list filters over any JSON, from files or stdin.
import {
  type CompiledFilter,
  compileFilter,
  explainFilter,
  formatExplanation,
  ListkitError,
  type OrderBy,
  type PageTokenBinding,
  PageTokenCodec,
  parseOrderBy,
  type SchemaWarning,
  type SortKey,
} from '@listkit/query';
import { planListQuery, sqlTable } from '@listkit/query/sql';
import { checkRecordAgainstSchema } from './check-record.js';
import { CliError, EXIT } from './cli-error.js';
import { OutputBuffer } from './output-buffer.js';
import { type Cursor, inputOrderPage, orderedPage, type PageSelection } from './page-selection.js';
import { pageTokenSecrets } from './page-token-secret.js';
import { readRecords } from './read-records.js';
import { renderTable } from './render-table.js';
import {
  numberRecord,
  type SchemaChoice,
  schemaFromFile,
  schemaFromSample,
} from './schema-choice.js';

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
  fields?: string[];
  explain: boolean;
  sql: boolean;
  printSchema: boolean;
  keepGoing: boolean;
  /** Convert the shapes other tools write when checking records against --schema. */
  coerce?: boolean;
  /** Records read to infer a schema. */
  sampleSize: number;
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
  const codec = paging ? await PageTokenCodec.create({ secrets: pageTokenSecrets() }) : undefined;
  const cursorKey =
    options.pageToken === undefined
      ? undefined
      : await codec!.open(options.pageToken, binding).catch((error: unknown) => {
          throw error instanceof ListkitError
            ? new CliError(`--page-token: ${error.message}`, EXIT.usage)
            : error;
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
  const warn = (w: SchemaWarning) =>
    io.error(`listkit: warning: schema: ${w.at}: ${w.message} (left out)`);
  const inputs = files.length > 0 ? files : ['-'];
  let choice: SchemaChoice | undefined = options.schema
    ? schemaFromFile(options.schema, { key: options.key, message: options.message }, warn)
    : undefined;

  const { binding, paging, codec, cursorKey } = await openPaging(filter, inputs, options);

  let query: Query | undefined;
  let printed: string | undefined;
  let sample: { record: object; position: number }[] = [];
  let position = 0;
  let count = 0;
  // --keep-going over NDJSON in input order writes each match as it is found (nothing is held
  // back for a malformed line to spoil); otherwise output waits for the whole input.
  const streaming = options.keepGoing && options.output === 'ndjson' && !options.orderBy && !paging;
  // Every match in input order: written out as found into a buffer that spills to disk, so
  // memory stays bounded however much of the input matches.
  const direct =
    !streaming &&
    !options.orderBy &&
    !paging &&
    (options.output === 'ndjson' || options.output === 'json');
  const held = new OutputBuffer();

  const begin = (): void => {
    choice ??= schemaFromSample(
      sample.map((s) => s.record),
      options.key,
      warn,
    );
    const prepared = prepare(filter, choice, options, cursorKey);
    if (typeof prepared === 'string') printed = prepared;
    else query = prepared;
  };
  const take = (record: object, at: number): boolean => {
    const q = query!;
    if (choice!.keyedByPosition) numberRecord(record, at);
    if (!q.filter.matches(record)) return true;
    count++;
    if (options.output === 'count') return true;
    if (streaming) {
      void io.write(`${JSON.stringify(project(record, options.fields))}\n`);
      return true;
    }
    if (direct) {
      const line = JSON.stringify(project(record, options.fields));
      if (options.output === 'ndjson') held.write(`${line}\n`);
      else held.write(`${count === 1 ? '{\n  "items": [\n' : ',\n'}    ${line}`);
      return true;
    }
    return q.selection.offer(record, at);
  };
  /** Matches the records read while sampling; false when the page is already complete. */
  const replay = (): boolean => {
    const held = sample;
    sample = [];
    return held.every(({ record, position: at }) => take(record, at));
  };

  try {
    await readAll();
  } catch (error) {
    held.discard();
    throw error;
  }
  async function readAll(): Promise<void> {
    if (choice) begin();
    for (const file of inputs) {
      if (printed !== undefined) break;
      const more = await readRecords(
        file,
        (read, origin) => {
          const record = options.schema
            ? checkRecordAgainstSchema(read, choice!.schema, origin, options.coerce === true)
            : read;
          const at = position++;
          if (query) return take(record as object, at);
          sample.push({ record: record as object, position: at });
          if (sample.length < options.sampleSize) return true;
          begin();
          return printed === undefined && replay();
        },
        { itemsPath: options.items, keepGoing: options.keepGoing, onBadLine: io.error },
      );
      if (!more) break;
    }
    if (!query && printed === undefined) {
      if (sample.length === 0) {
        if (options.printSchema || options.explain || options.sql) {
          throw new CliError('no records to infer a schema from; give --schema', EXIT.usage);
        }
      } else {
        begin();
        if (printed === undefined) replay();
      }
    }
  }
  if (printed !== undefined) {
    await io.write(printed);
    return EXIT.ok;
  }
  if (streaming) return EXIT.ok;
  if (direct) {
    if (options.output === 'json') held.write(count === 0 ? '{\n  "items": []\n}\n' : '\n  ]\n}\n');
    await held.drainTo(io.write);
    return EXIT.ok;
  }

  await writeSelection(query, { codec, binding, count }, options, io);
  return EXIT.ok;
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
    items.map((i) => i.record),
    nextPageToken,
    count,
    io,
  );
}

interface Query {
  filter: CompiledFilter<object>;
  selection: PageSelection;
}

/**
 * Checks the filter and orderBy against the schema and sets up the page; or, for --print-schema,
 * --explain and --sql, returns the text to print instead.
 */
function prepare(
  filter: string,
  choice: SchemaChoice,
  options: FilterOptions,
  cursorKey: SortKey | undefined,
): Query | string {
  const { schema } = choice;
  if (options.printSchema) return `${JSON.stringify(schema, null, 2)}\n`;
  const compiled = listkitCall(() => compileFilter<object>(filter, schema));
  const order = options.orderBy
    ? listkitCall(() => parseOrderBy<object>(options.orderBy!, schema))
    : undefined;
  if (options.explain) return `${formatExplanation(explainFilter(compiled.checked, filter))}\n`;
  if (options.sql) {
    const table = sqlTable(schema, { table: 'resources' });
    const plan = planListQuery(table, {
      filter: compiled,
      order: order ?? parseOrderBy<object>('', schema),
      pageSize: options.pageSize ?? 50,
    });
    return [
      plan.text,
      `-- parameters: ${JSON.stringify(plan.params)}`,
      ...(plan.exact
        ? []
        : ['-- returned rows are checked again by the filter in the process (residual)']),
      '',
    ].join('\n');
  }
  const cursor = cursorKey && cursorOf(cursorKey, order);
  const selection = order
    ? orderedPage(order, options.pageSize, cursor)
    : inputOrderPage(options.pageSize, cursor);
  return { filter: compiled, selection };
}

function cursorOf(key: SortKey, order: OrderBy<object> | undefined): Cursor {
  const position = key[key.length - 1];
  const expected = (order?.keyTerms.length ?? 0) + 1;
  if (
    key.length !== expected ||
    typeof position !== 'number' ||
    !Number.isInteger(position) ||
    position < 0
  ) {
    throw new CliError('--page-token: the token does not belong to this listing', EXIT.usage);
  }
  return { key: key.slice(0, -1), position };
}

/** Runs a parse or check, turning a ListkitError into the caret message and exit status 2. */
function listkitCall<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ListkitError) throw new CliError(error.format(), EXIT.usage);
    throw error;
  }
}

async function finish(
  options: FilterOptions,
  records: object[],
  nextPageToken: string | undefined,
  count: number,
  io: Io,
): Promise<void> {
  const output = new OutputBuffer();
  const shown = records.map((r) => project(r, options.fields));
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
      output.write(renderTable(shown, options.fields));
      break;
  }
  await output.drainTo(io.write);
  if (nextPageToken && options.output !== 'json') io.error(`nextPageToken: ${nextPageToken}`);
}

/** The record with only the given dotted paths (all of it without --fields). */
export function project(record: object, fields: string[] | undefined): object {
  if (!fields) return record;
  const out: Record<string, unknown> = {};
  for (const path of fields) {
    const steps = path.split('.');
    let value: unknown = record;
    for (const step of steps) {
      value =
        value !== null && typeof value === 'object'
          ? (value as Record<string, unknown>)[step]
          : undefined;
    }
    if (value === undefined) continue;
    let target = out;
    for (const step of steps.slice(0, -1)) {
      target[step] ??= {};
      target = target[step] as Record<string, unknown>;
    }
    target[steps[steps.length - 1]!] = value;
  }
  return out;
}
