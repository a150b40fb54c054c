import { type ListInput, ListkitError } from '../errors.js';
import { resolvePageSize } from '../list/page-size.js';
import { type ListStyle, styleOf } from './list-style.js';
import {
  extraParameterNames,
  type ListExtras,
  type MaskAndSkipOptions,
  readListExtras,
} from './mask-and-skip.js';
import { parameterNames } from './parameter-names.js';

/**
 * Options of {@link readListRequest}.
 *
 * @example
 * ```ts
 * const options: ReadListRequestOptions = {
 *   style: 'aip',
 *   defaultPageSize: 25,
 *   maxPageSize: 100,
 *   strict: true,
 *   allow: ['parent', '$alt'],
 * };
 * ```
 */
export interface ReadListRequestOptions extends MaskAndSkipOptions {
  /** `aip` (the default) or `compute`. */
  style?: ListStyle;
  /** @deprecated Use `style`; read only when `style` is absent. */
  dialect?: ListStyle;
  /** The page size when none is given, or 0 (AIP default 50; Compute 500). */
  defaultPageSize?: number;
  /** Larger page sizes are lowered to this (AIP-158; AIP default 1000; Compute 500). */
  maxPageSize?: number;
  /**
   * Refuse parameters the list method does not read, and a parameter given twice (also as
   * `orderBy` and `order_by`), with a {@link ListParameterError}. Off by default: such
   * parameters are ignored and the first value of a repeated one is read.
   */
  strict?: boolean;
  /** Other parameters a strict reader accepts (and ignores), such as `parent` or `$fields`. */
  allow?: readonly string[];
}

/**
 * The list parameters read from a request: the fields of a `ListRequest` of
 * `Collection.list` and `listFromSql`, the page size already resolved.
 *
 * @example
 * ```ts
 * const request: ListParameters = readListRequest(url.searchParams);
 * const page = await books.list({ ...request, parent: 'shelves/1' });
 * ```
 */
export interface ListParameters extends ListExtras {
  filter?: string;
  orderBy?: string;
  pageToken?: string;
  /** A positive integer: the default for none or 0, at most the maximum. */
  pageSize: number;
}

/**
 * A parameter that is not one the list method reads, or one given twice, refused by a strict
 * {@link readListRequest}. {@link toGoogleError} answers it as INVALID_ARGUMENT naming the
 * parameter.
 *
 * @example
 * ```ts
 * try {
 *   readListRequest(new URLSearchParams('fliter=x'), { strict: true });
 * } catch (e) {
 *   if (e instanceof ListParameterError) e.parameter; // 'fliter'
 * }
 * ```
 */
export class ListParameterError extends Error {
  override readonly name = 'ListParameterError';
  constructor(
    readonly code: 'unknown_parameter' | 'duplicate_parameter',
    /** The parameter as the request spelled it. */
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A request message or a parsed query: what {@link readListRequest} reads (a `URLSearchParams`,
 * or any object, whose own enumerable properties are the parameters). Values may be strings,
 * numbers, bigints (int32 and int64 fields of protobuf messages), arrays (a repeated query
 * parameter, as Express and Fastify parse it), or absent.
 *
 * @example
 * ```ts
 * const fromExpress: ListRequestSource = req.query;
 * const fromConnect: ListRequestSource = request; // a ListBooksRequest message
 * ```
 */
export type ListRequestSource = URLSearchParams | object;

/** The request parameters a list reads, named by the one rule (`parameter-names.ts`). */
const NAMES: Record<ListStyle, Record<string, ListInput>> = {
  aip: parameterNames('aip', ['filter', 'orderBy', 'pageToken', 'pageSize']),
  compute: parameterNames('compute', ['filter', 'orderBy', 'pageToken', 'pageSize']),
};

const PAGE_SIZES: Record<ListStyle, { default: number; max: number }> = {
  aip: { default: 50, max: 1000 },
  compute: { default: 500, max: 500 },
};

/** Protobuf-es bookkeeping and prototype members a message object carries: never parameters. */
const MESSAGE_KEYS = new Set(['$typeName', '$unknown']);

/**
 * Reads the list parameters of a request, from its query (`URLSearchParams`, or a parsed query
 * object such as Express's `req.query`) or from its request message (a Connect or gRPC
 * `ListBooksRequest`, with lowerCamel or snake_case names). Empty strings are absent; the page
 * size follows AIP-158 (none or 0 is the default, above the maximum is lowered, negative or not
 * an integer is an error). Throws {@link ListkitError} naming the bad input (`pageSize`, or
 * `filter`, `orderBy`, `pageToken` when one is not a string), and with `strict`
 * {@link ListParameterError} for an unknown or repeated parameter. The filter, orderBy and token
 * themselves are checked when the list runs (`Collection.list`, `listFromSql`).
 *
 * @example
 * ```ts
 * readListRequest(new URLSearchParams('filter=year>2000&page_size=5000'));
 * // { filter: 'year>2000', pageSize: 1000 }
 * readListRequest({ filter: '', orderBy: 'title', pageSize: 0, pageToken: '' }); // a message
 * // { orderBy: 'title', pageSize: 50 }
 * readListRequest(req.query, { style: 'compute' }); // maxResults, default and max 500
 * ```
 */
export function readListRequest(
  source: ListRequestSource,
  options: ReadListRequestOptions = {},
): ListParameters {
  const style = styleOf(options);
  const names = NAMES[style];
  const allowed = new Set([...(options.allow ?? []), ...extraParameterNames(style)]);
  const values = new Map<ListInput, { name: string; value: unknown }>();
  const seen = (name: string, input: ListInput, value: unknown): void => {
    const previous = values.get(input);
    if (previous) {
      if (options.strict) {
        throw new ListParameterError(
          'duplicate_parameter',
          name,
          previous.name === name
            ? `parameter '${name}' is given more than once`
            : `parameters '${previous.name}' and '${name}' are the same parameter`,
        );
      }
      return; // the first value counts
    }
    values.set(input, { name, value });
  };
  const entries: [string, unknown][] =
    source instanceof URLSearchParams ? [...source] : Object.entries(source);
  for (const [name, raw] of entries) {
    if (MESSAGE_KEYS.has(name)) continue;
    const input = Object.hasOwn(names, name) ? names[name] : undefined;
    if (!input) {
      if (options.strict && !allowed.has(name)) {
        throw new ListParameterError(
          'unknown_parameter',
          name,
          `unknown parameter '${name}'; a list request reads ${Object.keys(names)
            .filter((n) => !n.includes('_'))
            .join(', ')}`,
        );
      }
      continue;
    }
    if (Array.isArray(raw)) {
      for (const value of raw) seen(name, input, value);
    } else if (raw !== undefined && raw !== null) {
      seen(name, input, raw);
    }
  }
  const text = (input: Exclude<ListInput, 'pageSize'>): string | undefined => {
    const found = values.get(input);
    if (!found) return undefined;
    if (typeof found.value !== 'string') {
      const shown = show(found.value);
      throw ListkitError.of(
        input,
        input === 'pageToken'
          ? 'malformed_page_token'
          : input === 'orderBy'
            ? 'invalid_order_by'
            : 'invalid_value',
        `${found.name} must be a string, not ${shown}`,
        { start: 0, end: shown.length },
        shown,
      );
    }
    return found.value === '' ? undefined : found.value;
  };
  const size = values.get('pageSize');
  const rules = PAGE_SIZES[style];
  const request: ListParameters = {
    pageSize: resolvePageSize(size ? pageSizeOf(size.name, size.value) : undefined, {
      default: options.defaultPageSize ?? rules.default,
      max: options.maxPageSize ?? rules.max,
    }),
  };
  const filter = text('filter');
  const orderBy = text('orderBy');
  const pageToken = text('pageToken');
  if (filter !== undefined) request.filter = filter;
  if (orderBy !== undefined) request.orderBy = orderBy;
  if (pageToken !== undefined) request.pageToken = pageToken;
  return Object.assign(request, readListExtras(source, style, options));
}

/** A page size as a number: an integer string, number or bigint; anything else is an error. */
function pageSizeOf(name: string, value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') {
    if (value === '') return undefined;
    if (/^[+-]?\d{1,16}$/.test(value.trim())) return Number(value.trim());
  }
  const shown = typeof value === 'string' ? value : show(value);
  throw ListkitError.of(
    'pageSize',
    'invalid_page_size',
    `${name} must be an integer, not ${JSON.stringify(shown)}`,
    { start: 0, end: shown.length },
    shown,
  );
}

/** A value for an error message: JSON where it has one (a bigint or a cycle has none). */
function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
