import { ListkitError, type Problem } from '../errors.js';
import {
  compileFieldMask,
  type FieldMask,
  listResponseType,
} from '../field-mask/compile-field-mask.js';
import type { ListPage, ListRequest } from '../list/collection.js';
import type { ResourceSchema } from '../schema/field-type.js';
import type { ListStyle } from './list-style.js';
import { parameterNames } from './parameter-names.js';

// The parts of a list request beyond filter, orderBy and paging: AIP-158's `skip`, AIP-157's
// `read_mask` (relative to each resource) and the `fields` system parameter (relative to the
// whole response). Kept apart from the reading of the core parameters so each stays small.

/**
 * Options of the list method for `skip` and masks.
 *
 * @example
 * ```ts
 * await runListRequest(query, (request) => listFromSql(request, sql), { schema, maxSkip: 5000 });
 * ```
 */
export interface MaskAndSkipOptions {
  /**
   * The resource schema `read_mask` and `fields` are checked against. Read from a Collection
   * lister when not given; needed when the lister is a function and a mask is sent.
   */
  schema?: ResourceSchema;
  /** The largest `skip` accepted (skipping costs the items skipped). Default 10,000. */
  maxSkip?: number;
}

/** The names each extra is read under, per style (Compute Engine has no skip or read mask). */
// Named by the one rule (`parameter-names.ts`); `$fields` is the system parameter's other name.
const EXTRA_NAMES: Record<ListStyle, Record<string, 'skip' | 'readMask' | 'fields'>> = {
  aip: { ...parameterNames('aip', ['skip', 'readMask', 'fields']), $fields: 'fields' },
  compute: { ...parameterNames('compute', ['fields']), $fields: 'fields' },
};

/**
 * The parameter names {@link readListExtras} reads in a style: a strict reader accepts them.
 *
 * @example
 * ```ts
 * extraParameterNames('aip'); // ['skip', 'readMask', 'read_mask', 'fields', '$fields']
 * ```
 */
export function extraParameterNames(style: ListStyle): string[] {
  return Object.keys(EXTRA_NAMES[style]);
}

/**
 * What {@link readListExtras} read: `skip` when positive, the masks as written.
 *
 * @example
 * ```ts
 * const extras: ListExtras = { skip: 30, readMask: 'name,title' };
 * ```
 */
export interface ListExtras {
  skip?: number;
  readMask?: string;
  fields?: string;
}

/**
 * Reads `skip` (AIP-158: an int32, not negative; 0 is none), `read_mask` (a FieldMask: its JSON
 * text, or a message with `paths`, as a Connect or gRPC request carries it) and `fields` from a
 * query or request message. The first value of a repeated parameter counts.
 */
export function readListExtras(
  source: URLSearchParams | object,
  style: ListStyle,
  options: MaskAndSkipOptions = {},
): ListExtras {
  const names = EXTRA_NAMES[style];
  const found = new Map<'skip' | 'readMask' | 'fields', { name: string; value: unknown }>();
  const entries: [string, unknown][] =
    source instanceof URLSearchParams ? [...source] : Object.entries(source);
  for (const [name, raw] of entries) {
    const extra = Object.hasOwn(names, name) ? names[name] : undefined;
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (extra && value !== undefined && value !== null && !found.has(extra)) {
      found.set(extra, { name, value });
    }
  }
  const extras: ListExtras = {};
  const skip = found.get('skip');
  if (skip) {
    const n = skipOf(skip.name, skip.value, options.maxSkip ?? 10_000);
    if (n > 0) extras.skip = n;
  }
  const readMask = found.get('readMask');
  if (readMask) {
    const text = maskText(readMask.name, readMask.value);
    if (text !== '') extras.readMask = text;
  }
  const fields = found.get('fields');
  if (fields) {
    const text = maskText(fields.name, fields.value);
    if (text !== '') extras.fields = text;
  }
  return extras;
}

function skipOf(name: string, value: unknown, max: number): number {
  const text = typeof value === 'string' ? value.trim() : String(value);
  const n =
    typeof value === 'number' || typeof value === 'bigint'
      ? Number(value)
      : /^[+-]?\d{1,16}$/.test(text)
        ? Number(text)
        : Number.NaN;
  const refuse = (why: string): never => {
    throw ListkitError.of(
      'skip',
      'invalid_skip',
      `${name} ${why}`,
      { start: 0, end: text.length },
      text,
    );
  };
  if (typeof value === 'string' && text === '') return 0;
  if (!Number.isSafeInteger(n)) refuse(`must be an integer, not ${JSON.stringify(text)}`);
  if (n < 0) refuse(`must not be negative, not ${n}`);
  if (n > max) refuse(`must be at most ${max}, not ${n}`);
  return n;
}

/** A mask as text: a string, or a FieldMask message's `paths` joined by commas. */
function maskText(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  const paths = (value as { paths?: unknown } | null)?.paths;
  if (Array.isArray(paths) && paths.every((p) => typeof p === 'string')) return paths.join(',');
  const shown = JSON.stringify(value) ?? String(value);
  throw ListkitError.of(
    'fields',
    'invalid_field_mask',
    `${name} must be a field mask (text, or a FieldMask with paths), not ${shown}`,
    { start: 0, end: shown.length },
    shown,
  );
}

/**
 * The page after skipping `skip` matching items from where `request` starts (its page token,
 * or the beginning), as AIP-158 says: skipping is by items, relative to the token, and past the
 * end is an empty page with no token. The lister is asked for the skipped items in chunks and
 * their tokens are followed, so any lister works (a Collection, `listFromSql`), and the next
 * page token carries the position on.
 */
export async function listSkipping<T>(
  list: (request: ListRequest) => Promise<ListPage<T>>,
  request: ListRequest,
  skip: number,
): Promise<ListPage<T>> {
  let pageToken = request.pageToken;
  let remaining = skip;
  while (remaining > 0) {
    const chunk = await list({ ...request, pageToken, pageSize: Math.min(remaining, 1000) });
    remaining -= chunk.items.length;
    if (!chunk.nextPageToken) return { items: [] };
    pageToken = chunk.nextPageToken;
  }
  return list(pageToken === undefined ? request : { ...request, pageToken });
}

/**
 * The masks of a list call, checked before it runs: `read_mask` against the resource, `fields`
 * against the response (`itemsField`, `nextPageToken`). Applied with {@link applyListMasks}.
 */
export function listMasks(
  extras: ListExtras,
  schema: ResourceSchema | undefined,
  itemsField: string,
): { readMask?: FieldMask; fields?: FieldMask } {
  if (extras.readMask === undefined && extras.fields === undefined) return {};
  if (!schema) {
    throw new TypeError(
      'runListRequest: a read_mask or fields was sent, but no schema is known to check it against: pass options.schema',
    );
  }
  return {
    ...(extras.readMask !== undefined ? { readMask: readMaskOf(extras.readMask, schema) } : {}),
    ...(extras.fields !== undefined
      ? { fields: compileFieldMask(extras.fields, listResponseType(schema, { items: itemsField })) }
      : {}),
  };
}

/** A read mask checked against the resource, its problems said to be the read mask's. */
function readMaskOf(text: string, schema: ResourceSchema): FieldMask {
  try {
    return compileFieldMask(text, schema);
  } catch (error) {
    if (!(error instanceof ListkitError)) throw error;
    const problems = error.problems.map((p): Problem => ({ ...p, input: 'readMask' }));
    throw new ListkitError(problems as [Problem, ...Problem[]], error.source);
  }
}

/** A response with the read mask applied to each item, then `fields` to the whole. */
export function applyListMasks<R extends object>(
  response: R,
  masks: { readMask?: FieldMask; fields?: FieldMask },
  itemsField: string,
): R {
  let out: Record<string, unknown> = response as Record<string, unknown>;
  const items = out[itemsField];
  if (masks.readMask && Array.isArray(items)) {
    const mask = masks.readMask;
    out = { ...out, [itemsField]: items.map((item) => mask.apply(item)) };
  }
  return (masks.fields ? masks.fields.apply(out) : out) as R;
}
