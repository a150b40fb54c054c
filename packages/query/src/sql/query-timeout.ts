import { ListkitError } from '../errors.js';

/**
 * The error of a list statement that ran past its time limit, whichever engine or runner noticed:
 * reported against the filter, the input a caller narrows first (the message says so).
 *
 * @example
 * ```ts
 * throw queryTimeout(5000); // ListkitError 'query_timeout'
 * ```
 */
export function queryTimeout(timeoutMs: number): ListkitError {
  return ListkitError.of(
    'filter',
    'query_timeout',
    `the list query took longer than ${timeoutMs} ms; narrow the filter or use an ordering with an index`,
    { start: 0, end: 0 },
    '',
  );
}
