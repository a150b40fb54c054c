import type { Context } from 'hono';
import { errors } from './api-error.js';
import { requestUrl } from './request-url.js';

/**
 * A query parameter as the request gave it, decoded with form semantics (`+` and `%20` are
 * spaces: gcloud sends `+`, the Node clients `%20`); the first of repeated parameters; undefined
 * when absent. Read from the URL parsed once per call (`requestUrl`), whose decoding turns an
 * invalid UTF-8 escape into U+FFFD and decodes the escapes around it. Hono's `c.req.query()`
 * leaves a whole run of escapes undecoded when one of them is invalid (`name%3D%FF` stayed
 * `name%3D%FF`, a different filter).
 *
 * @example
 * ```ts
 * queryParam(c, 'filter'); // 'name = web-*' for ?filter=name+%3D+web-*
 * ```
 */
export function queryParam(c: Context, name: string): string | undefined {
  return requestUrl(c).searchParams.get(name) ?? undefined;
}

/**
 * A boolean query parameter: `true`/`false`, also as `True`/`False` (gcloud); unset or empty is
 * undefined.
 *
 * @example
 * ```ts
 * booleanParam(queryParam(c, 'revoke'), 'revoke') ?? false;
 * ```
 */
export function booleanParam(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  throw errors.invalid(`Invalid value for field '${name}': '${value}'. Expected a boolean.`, name);
}

/**
 * An unsigned 32-bit integer query parameter such as `maxResults`; unset or empty is undefined.
 *
 * @example
 * ```ts
 * uint32Param(queryParam(c, 'maxResults'), 'maxResults'); // 25 for ?maxResults=25
 * ```
 */
export function uint32Param(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) {
    throw errors.invalid(
      `Invalid value for field '${name}': '${value}'. Expected an integer.`,
      name,
    );
  }
  const n = Number(value);
  if (n < 0 || n > 0xffffffff) {
    throw errors.invalid(
      `Invalid value for field '${name}': '${value}'. Must be a non-negative integer.`,
      name,
    );
  }
  return n;
}
