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

/** `'abc'`, or `'first 40…' (15000 characters)` for a longer token. */
function quotedToken(token: string): string {
  return token.length > QUOTED_TOKEN_CHARS
    ? `'${token.slice(0, QUOTED_TOKEN_CHARS)}…' (${token.length} characters)`
    : `'${token}'`;
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
  const where = `${error.message} (${error.code} at ${error.line}:${error.column})`;
  if (
    ORDER_BY.has(error.code) ||
    (error.source === params.orderBy && error.code === 'unknown_field')
  ) {
    return new ApiError(
      400,
      'invalid',
      `Invalid value for field 'orderBy': '${params.orderBy ?? ''}'. ${where}`,
      { location: 'orderBy' },
    );
  }
  if (PAGE_TOKEN.has(error.code)) {
    return new ApiError(
      400,
      'invalid',
      `Invalid value for field 'pageToken': ${quotedToken(params.pageToken ?? '')}. ${error.message}`,
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
    `Invalid value for field 'filter': '${params.filter ?? ''}'. Invalid list filter expression: ${where}`,
    { location: 'filter' },
  );
}
