import { ListkitError } from '../errors.js';

// The page-size rule of every list path, written once: what a list call accepts
// (Collection.list, listFromSql) and how an API's request becomes one (readListRequest, the
// emulator's maxResults).

/** A ListkitError on `pageSize` quoting the refused value. */
function invalidPageSize(value: number, expected: string): ListkitError {
  const text = String(value);
  return ListkitError.of(
    'pageSize',
    'invalid_page_size',
    `page size must be ${expected}, not ${text}`,
    { start: 0, end: text.length },
    text,
  );
}

/**
 * The page size a list call takes: a positive safe integer (an API's request is resolved to one
 * first, {@link resolvePageSize}). Throws a ListkitError on `pageSize` otherwise.
 *
 * @example
 * ```ts
 * checkPageSize(request.pageSize); // before planning the page
 * ```
 */
export function checkPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw invalidPageSize(pageSize, 'a positive integer');
  }
}

/**
 * Applies an API's page-size rules (AIP-158): unset or 0 gives the default, above the maximum is
 * coerced down, negative or non-integer is an error.
 *
 * @example
 * ```ts
 * resolvePageSize(undefined, { default: 500, max: 500 }); // 500 — Compute Engine's maxResults
 * resolvePageSize(1000, { default: 500, max: 500 });      // 500
 * ```
 */
export function resolvePageSize(
  value: number | undefined,
  rules: { default: number; max: number },
): number {
  if (value === undefined || value === 0) return rules.default;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalidPageSize(value, 'a non-negative integer');
  }
  return Math.min(value, rules.max);
}
