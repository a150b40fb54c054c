import { errors } from './api-error.js';

/**
 * The query parameters of a request URL with HTML-form semantics: `+` and `%20` are spaces
 * (gcloud sends `+`, the Node clients `%20`). Repeated parameters keep the first value.
 */
export function queryParams(url: string): Map<string, string> {
  const params = new Map<string, string>();
  const question = url.indexOf('?');
  if (question < 0) return params;
  for (const [key, value] of new URLSearchParams(url.slice(question + 1))) {
    if (!params.has(key)) params.set(key, value);
  }
  return params;
}

/** A boolean query parameter: `true`/`false`, also as `True`/`False` (gcloud). */
export function booleanParam(params: Map<string, string>, name: string): boolean | undefined {
  const value = params.get(name);
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  throw errors.invalid(`Invalid value for field '${name}': '${value}'. Expected a boolean.`, name);
}

/** An unsigned 32-bit integer query parameter such as `maxResults`. */
export function uint32Param(params: Map<string, string>, name: string): number | undefined {
  const value = params.get(name);
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
