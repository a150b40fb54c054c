// The whole playground state lives in the URL's hash, so a link reproduces it: nothing is stored
// on a server, and nothing expires. Edited data, a pasted schema and the expectations are
// deflated and base64url-encoded. Everything read from a link is bounded, and what is refused is
// said in words.
import type { SqlDialectName } from '@listkit/query/sql';
import {
  type Expectation,
  MAX_EXPECTATION_FILTER_CHARS,
  parseExpectations,
} from './expectations.js';
import type { SchemaOverrides } from './schema-source.js';
import { DEFAULT_SQL_DIALECT, isSqlDialect, SQL_DIALECTS } from './sql-dialects.js';

export interface PlaygroundState {
  filter: string;
  orderBy: string;
  pageSize: number;
  /** The example dataset: its schema (unless another is given), generator and examples. */
  dataset: string;
  /** How many resources to generate when the data is not edited. */
  sample: number;
  /** Edited data (JSON text); absent while the generated sample is in use. */
  data?: string;
  /**
   * The data a link left out (too large for it): the page waits for it on an empty "your data"
   * (`data` is ''), keeping the filter, schema and tests, until it is pasted or dropped.
   */
  missingData?: MissingData;
  /** The schema is inferred from the data instead of the dataset's. */
  inferred: boolean;
  /** A pasted JSON Schema, `.proto` or listkit schema JSON; wins over the dataset's and inference. */
  schemaText?: string;
  /** The `.proto` message to read (else the resource message, or the first). */
  protoMessage?: string;
  overrides: SchemaOverrides;
  expectations: Expectation[];
  /** The SQL panel's dialect. */
  sqlDialect: SqlDialectName;
}

/** What a link says of the data it left out. */
export interface MissingData {
  /** How many records the sender had, when the link says. */
  records?: number;
  /** The digest this browser keeps the data under (kept-data.ts), when the link says. */
  ref?: string;
}

/** Compute Engine's largest maxResults. */
export const MAX_PAGE_SIZE = 500;

export const DEFAULTS: PlaygroundState = {
  filter: '',
  orderBy: '',
  pageSize: 10,
  dataset: 'compute',
  sample: 300,
  inferred: false,
  overrides: {},
  expectations: [],
  sqlDialect: DEFAULT_SQL_DIALECT,
};

/** A fresh copy of the defaults (arrays and objects not shared). */
export const defaults = (): PlaygroundState => ({ ...DEFAULTS, overrides: {}, expectations: [] });

/**
 * The most characters of packed data a link carries (about 40 rules). Longer links break in chat
 * tools, mail and servers (many stop at 8 KB); larger data is shared as a file instead.
 */
export const MAX_LINK_DATA_CHARS = 6000;
/** Bounds on what a link may make the page decode. */
export const MAX_HASH_CHARS = 64_000;
export const MAX_UNPACKED_CHARS = 2_000_000;
export const MAX_SCHEMA_CHARS = 200_000;

/** Edited data a link left out: how large it is, and the digest the page keeps it under. */
export interface LeftOutData extends MissingData {
  /** Its packed size in characters (over {@link MAX_LINK_DATA_CHARS}). */
  packedChars: number;
}

export interface EncodedState {
  hash: string;
  /** The edited data was too large for the link and is not in it. */
  dataLeftOut?: LeftOutData;
}

/** What the link needs besides the state when it leaves the data out. */
export interface EncodeContext {
  /** How many records the data holds. */
  records?: number;
  /** The schema in use as listkit schema JSON: an inferred schema cannot be inferred without the data. */
  schemaJson?: () => string;
  /** The digest of the data (kept-data.ts), under which this browser keeps it. */
  digest?: (text: string) => Promise<string | undefined>;
}

/**
 * The hash for a state. Defaults are left out to keep links short, except the filter: a link
 * with no hash at all opens the first-visit example instead. Data over
 * {@link MAX_LINK_DATA_CHARS} packed is left out, and the link says so (`dataLeftOut` with the
 * record count, `dataRef` with its digest), carrying an inferred schema as listkit schema JSON.
 *
 * @example
 * const { hash, dataLeftOut } = await encodeState(store.state, { records: 250 });
 */
export async function encodeState(
  state: PlaygroundState,
  context: EncodeContext = {},
): Promise<EncodedState> {
  const params = new URLSearchParams();
  params.set('filter', state.filter);
  if (state.orderBy) params.set('orderBy', state.orderBy);
  if (state.pageSize !== DEFAULTS.pageSize) params.set('pageSize', String(state.pageSize));
  if (state.dataset !== DEFAULTS.dataset) params.set('dataset', state.dataset);
  let dataLeftOut: LeftOutData | undefined;
  let missing = state.data === '' ? state.missingData : undefined;
  if (state.data !== undefined && !missing) {
    const packed = await packText(state.data);
    if (packed.length <= MAX_LINK_DATA_CHARS) params.set('data', packed);
    else {
      const ref = await context.digest?.(state.data);
      dataLeftOut = { records: context.records, ref, packedChars: packed.length };
      missing = dataLeftOut;
    }
  } else if (state.data === undefined && state.sample !== DEFAULTS.sample)
    params.set('sample', String(state.sample));
  if (missing) {
    params.set('dataLeftOut', String(missing.records ?? ''));
    if (missing.ref) params.set('dataRef', missing.ref);
  }
  if (state.inferred) params.set('infer', '1');
  const schemaText =
    state.schemaText ?? (dataLeftOut && state.inferred ? context.schemaJson?.() : undefined);
  if (schemaText !== undefined) params.set('schema', await pack(schemaText));
  if (state.protoMessage) params.set('message', state.protoMessage);
  const { key, orderings, searchable } = state.overrides;
  if (key) params.set('key', key);
  if (orderings) params.set('orderings', JSON.stringify(orderings));
  if (searchable) params.set('searchable', searchable.join(','));
  if (state.expectations.length > 0)
    params.set('tests', await pack(JSON.stringify(state.expectations)));
  if (state.sqlDialect !== DEFAULTS.sqlDialect) params.set('sql', state.sqlDialect);
  return { hash: `#${params}`, dataLeftOut };
}

export interface DecodedHash {
  state: Partial<PlaygroundState>;
  /** `#example=<id>`: an example's link. */
  example?: string;
  /** Problems reading the hash (such as corrupted data). */
  warnings: string[];
}

/** Reads a hash written by {@link encodeState} (or an example link). Unknown keys are ignored. */
export async function decodeHash(hash: string): Promise<DecodedHash> {
  const warnings: string[] = [];
  if (hash.length > MAX_HASH_CHARS) {
    warnings.push(
      `the link is ${hash.length} characters long, over the ${MAX_HASH_CHARS} this page reads; nothing in it was used`,
    );
    return { state: {}, warnings };
  }
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state: Partial<PlaygroundState> = {};
  readQuery(params, state, warnings);
  await readData(params, state, warnings);
  await readSchema(params, state, warnings);
  await readTests(params, state, warnings);
  return { state, example: params.get('example') ?? undefined, warnings };
}

function readQuery(params: URLSearchParams, state: Partial<PlaygroundState>, warnings: string[]) {
  const filter = params.get('filter');
  if (filter !== null) state.filter = filter;
  const orderBy = params.get('orderBy');
  if (orderBy !== null) state.orderBy = orderBy;
  const pageSize = params.get('pageSize');
  if (pageSize !== null) {
    const n = Number(pageSize);
    if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE) state.pageSize = n;
    else
      warnings.push(`ignored pageSize=${pageSize}: not a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const dataset = params.get('dataset');
  if (dataset !== null) state.dataset = dataset;
  const sample = params.get('sample');
  if (sample !== null) {
    const n = Number(sample);
    if (Number.isSafeInteger(n) && n >= 0 && n <= 5000) state.sample = n;
    else warnings.push(`ignored sample=${sample}: not a count from 0 to 5000`);
  }
  readSqlDialect(params, state, warnings);
}

/** `sql=sqlite`: the SQL panel's dialect (absent: PostgreSQL). */
function readSqlDialect(
  params: URLSearchParams,
  state: Partial<PlaygroundState>,
  warnings: string[],
) {
  const sql = params.get('sql');
  if (sql === null) return;
  if (isSqlDialect(sql)) state.sqlDialect = sql;
  else
    warnings.push(
      `ignored sql=${sql.slice(0, 40)}: not one of ${SQL_DIALECTS.map((d) => d.name).join(', ')}`,
    );
}

/** The most records a link may say it left out (the page takes no more). */
const MAX_LEFT_OUT_RECORDS = 20_000;

async function readData(
  params: URLSearchParams,
  state: Partial<PlaygroundState>,
  warnings: string[],
) {
  const data = params.get('data');
  if (data === null) return readLeftOut(params, state);
  try {
    state.data = await unpackText(data, MAX_UNPACKED_CHARS);
  } catch (error) {
    // Never another dataset in its place: an empty "your data" waits for it.
    state.data = '';
    state.missingData = {};
    warnings.push(
      error instanceof TooLargeError
        ? `the data in this link unpacks to over ${MAX_UNPACKED_CHARS / 1_000_000} MB`
        : 'the data in this link is damaged',
    );
  }
}

/** `dataLeftOut=250&dataRef=…`: the sender's data was too large for the link. */
function readLeftOut(params: URLSearchParams, state: Partial<PlaygroundState>) {
  const records = params.get('dataLeftOut');
  if (records === null) return;
  const count = Number(records);
  const ref = params.get('dataRef');
  state.data = '';
  state.missingData = {
    records:
      records !== '' && Number.isSafeInteger(count) && count >= 0 && count <= MAX_LEFT_OUT_RECORDS
        ? count
        : undefined,
    ref: ref && /^[\w-]{1,64}$/.test(ref) ? ref : undefined,
  };
}

async function readSchema(
  params: URLSearchParams,
  state: Partial<PlaygroundState>,
  warnings: string[],
) {
  if (params.get('infer') === '1') state.inferred = true;
  const schema = params.get('schema');
  if (schema !== null) {
    try {
      state.schemaText = await unpackText(schema, MAX_SCHEMA_CHARS);
    } catch (error) {
      warnings.push(
        error instanceof TooLargeError
          ? `the schema in this link is over ${MAX_SCHEMA_CHARS / 1000} KB; it was not used`
          : 'the schema in this link is damaged; it was not used',
      );
    }
  }
  const message = params.get('message');
  if (message !== null && /^[\w.]{1,200}$/.test(message)) state.protoMessage = message;
  const overrides: SchemaOverrides = {};
  const key = params.get('key');
  if (key && key.length <= 200) overrides.key = key;
  const orderings = params.get('orderings');
  if (orderings !== null) {
    try {
      const list = JSON.parse(orderings) as unknown;
      if (!Array.isArray(list) || list.length > 100 || !list.every((o) => typeof o === 'string'))
        throw new Error();
      overrides.orderings = list;
    } catch {
      warnings.push('ignored orderings: not a JSON array of at most 100 strings');
    }
  }
  const searchable = params.get('searchable');
  if (searchable !== null)
    overrides.searchable = searchable.split(',').filter(Boolean).slice(0, 100);
  if (Object.keys(overrides).length > 0) state.overrides = overrides;
}

async function readTests(
  params: URLSearchParams,
  state: Partial<PlaygroundState>,
  warnings: string[],
) {
  const tests = params.get('tests');
  if (tests === null) return;
  try {
    const text = await unpackText(tests, 200 * MAX_EXPECTATION_FILTER_CHARS);
    state.expectations = parseExpectations(JSON.parse(text));
  } catch (error) {
    const why = error instanceof TooLargeError ? 'too large' : (error as Error).message;
    warnings.push(`the expectations in this link were not used (${why})`);
  }
}

// 'z' + deflate-raw, or 'j' + plain UTF-8 where CompressionStream is missing; both base64url.
// The last result is kept: the URL is rewritten on every evaluation, the data rarely changes.
let lastPacked: { text: string; packed: Promise<string> } | undefined;
function packText(text: string): Promise<string> {
  if (lastPacked?.text !== text) lastPacked = { text, packed: pack(text) };
  return lastPacked.packed;
}

async function pack(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  if (typeof CompressionStream === 'function') {
    const deflated = await transform(bytes, new CompressionStream('deflate-raw'), Infinity);
    return `z${toBase64Url(deflated)}`;
  }
  return `j${toBase64Url(bytes)}`;
}

class TooLargeError extends Error {}

/** Unpacks link text, refusing to inflate past `maxChars` bytes (a small link can inflate to GBs). */
async function unpackText(packed: string, maxChars: number): Promise<string> {
  const bytes = fromBase64Url(packed.slice(1));
  let out: Uint8Array;
  if (packed[0] === 'j') out = bytes;
  else if (packed[0] === 'z')
    out = await transform(bytes, new DecompressionStream('deflate-raw'), maxChars);
  else throw new Error('unknown data encoding');
  if (out.length > maxChars) throw new TooLargeError();
  return new TextDecoder('utf-8', { fatal: true }).decode(out);
}

async function transform(
  bytes: Uint8Array,
  stream: CompressionStream | DecompressionStream,
  maxBytes: number,
): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(stream).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      await reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
