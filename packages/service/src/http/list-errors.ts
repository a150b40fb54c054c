import type { ListkitError } from '@listkit/query';
import { ApiError } from './api-error.js';
import { type ListInputsAsWritten, PAGE_SIZE_PARAMETER } from './list-params.js';

/** The most of a bad page token an error quotes: a token is opaque, the start identifies it. */
export const QUOTED_TOKEN_CHARS = 40;
/**
 * The most of a bad filter or orderBy an error quotes. Compute quotes the value whole; a filter
 * may be 8,192 characters and the envelope says the message twice, so longer ones are cut (the
 * position in the message still says where the problem is).
 */
export const QUOTED_EXPRESSION_CHARS = 200;

/** `'abc'`, or `'first n…' (15000 characters)` for a longer value. */
function quoted(value: string, max: number): string {
  return value.length > max
    ? `'${value.slice(0, max)}…' (${value.length} characters)`
    : `'${value}'`;
}

/**
 * Turns a list-engine error into Compute Engine's answer, by the input its problem concerns
 * ({@link ListkitError.input}): a 400 `Invalid value for field 'filter': '…'. Invalid list
 * filter expression.` (or `orderBy`, `pageToken`, `maxResults`), followed by what listkit found
 * and where, so the caller learns more than Google tells (the code and position are stable). A
 * query that ran out of time is a 504.
 *
 * @example
 * ```ts
 * const error = ListkitError.of('orderBy', 'unknown_field', "unknown field 'nmae'", { start: 0, end: 4 }, 'nmae');
 * listErrorToApiError(error, { orderBy: 'nmae' }).extra.location; // 'orderBy'
 * ```
 */
export function listErrorToApiError(error: ListkitError, params: ListInputsAsWritten): ApiError {
  if (error.code === 'query_timeout') {
    // The request was valid; the backend ran out of time: Google's DEADLINE_EXCEEDED, a 504
    // clients may retry, never a 400 that blames the caller's filter.
    return new ApiError(504, 'deadlineExceeded', `The list query timed out. ${error.message}`);
  }
  const where = `${error.message} (${error.code} at ${error.line}:${error.column})`;
  const invalid = (location: string, detail: string) =>
    new ApiError(400, 'invalid', `Invalid value for field '${location}'${detail}`, { location });
  switch (error.input) {
    case 'filter':
      return invalid(
        'filter',
        `: ${quoted(params.filter ?? '', QUOTED_EXPRESSION_CHARS)}. Invalid list filter expression: ${where}`,
      );
    case 'orderBy':
      return invalid(
        'orderBy',
        `: ${quoted(params.orderBy ?? '', QUOTED_EXPRESSION_CHARS)}. ${where}`,
      );
    case 'pageToken':
      return invalid(
        'pageToken',
        `: ${quoted(params.pageToken ?? '', QUOTED_TOKEN_CHARS)}. ${error.message}`,
      );
    case 'pageSize':
      return invalid(PAGE_SIZE_PARAMETER, `. ${error.message}`);
    default:
      // A parent, a resource value, a field mask or a skip: Compute's list engine raises none
      // of these, and the emulator's list calls pass none.
      return invalid(error.input, `. ${error.message}`);
  }
}
