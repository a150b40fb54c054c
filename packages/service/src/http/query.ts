import { errors } from './api-error.js';

// Query parameters come from Hono's request (`c.req.query(name)`), which decodes them with form
// semantics (`+` and `%20` are spaces: gcloud sends `+`, the Node clients `%20`) and gives the
// first of repeated parameters. These read the typed ones, with Compute's 400 for a bad value.

/**
 * A boolean query parameter: `true`/`false`, also as `True`/`False` (gcloud); unset or empty is
 * undefined.
 *
 * @example
 * ```ts
 * booleanParam(c.req.query('revoke'), 'revoke') ?? false;
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
 * uint32Param(c.req.query('maxResults'), 'maxResults'); // 25 for ?maxResults=25
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
