import { ListkitError, type ListkitErrorCode } from '@listkit/query';
import { ApiError } from './api-error.js';

const ORDER_BY: ReadonlySet<ListkitErrorCode> = new Set([
  'invalid_order_by',
  'unsortable_field',
  'duplicate_order_by_field',
  'unsupported_order_by',
]);
const PAGE_TOKEN: ReadonlySet<ListkitErrorCode> = new Set([
  'malformed_page_token',
  'tampered_page_token',
  'page_token_query_mismatch',
  'expired_page_token',
]);

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

/** The list parameters as the request gave them, for error messages. */
export interface ListParams {
  filter?: string;
  orderBy?: string;
  pageToken?: string;
}

/**
 * Turns a list-engine error into Compute Engine's 400: `Invalid value for field 'filter': '…'.
 * Invalid list filter expression.`, followed by what listkit found and where, so the caller
 * learns more than Google tells (the code and position are stable).
 */
export function listErrorToApiError(error: unknown, params: ListParams): unknown {
  if (!(error instanceof ListkitError)) return error;
  if (error.code === 'query_timeout') {
    // The request was valid; the backend ran out of time: Google's DEADLINE_EXCEEDED, a 504
    // clients may retry, never a 400 that blames the caller's filter.
    return new ApiError(504, 'deadlineExceeded', `The list query timed out. ${error.message}`);
  }
  const where = `${error.message} (${error.code} at ${error.line}:${error.column})`;
  if (
    ORDER_BY.has(error.code) ||
    (error.source === params.orderBy && error.code === 'unknown_field')
  ) {
    return new ApiError(
      400,
      'invalid',
      `Invalid value for field 'orderBy': ${quoted(params.orderBy ?? '', QUOTED_EXPRESSION_CHARS)}. ${where}`,
      { location: 'orderBy' },
    );
  }
  if (PAGE_TOKEN.has(error.code)) {
    return new ApiError(
      400,
      'invalid',
      `Invalid value for field 'pageToken': ${quoted(params.pageToken ?? '', QUOTED_TOKEN_CHARS)}. ${error.message}`,
      {
        location: 'pageToken',
      },
    );
  }
  if (error.code === 'invalid_page_size') {
    return new ApiError(400, 'invalid', `Invalid value for field 'maxResults'. ${error.message}`, {
      location: 'maxResults',
    });
  }
  return new ApiError(
    400,
    'invalid',
    `Invalid value for field 'filter': ${quoted(params.filter ?? '', QUOTED_EXPRESSION_CHARS)}. Invalid list filter expression: ${where}`,
    { location: 'filter' },
  );
}
