import { ListkitError } from '@listkit/query';
import type { Context } from 'hono';
import { DomainError } from '../core/refusal.js';
import { StoreError } from '../core/store-error.js';
import { isStatementTimeout } from '../db/statement-timeout.js';
import { ApiError } from './api-error.js';
import { domainErrorToApiError, errorDialectOf } from './domain-errors.js';
import { listErrorToApiError } from './list-errors.js';
import { queryParam } from './query.js';

/**
 * The one mapping of what a call throws to the Google error envelope: an {@link ApiError} as it
 * is, a domain error ({@link StoreError}, {@link DomainError}) in the dialect of the API the path
 * belongs to, and a list-engine {@link ListkitError} by the list input its problem concerns,
 * quoting that input from the request's query; a database statement stopped for time outside a
 * list call, a 503 the client may retry. Anything else is undefined (an internal error).
 *
 * @example
 * ```ts
 * app.onError((error, c) => (apiErrorOf(error, c) ?? internalError(error)).toResponse());
 * ```
 */
export function apiErrorOf(error: unknown, c: Context): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreError || error instanceof DomainError) {
    return domainErrorToApiError(error, errorDialectOf(c));
  }
  if (error instanceof ListkitError) {
    return listErrorToApiError(error, {
      filter: queryParam(c, 'filter'),
      orderBy: queryParam(c, 'orderBy'),
      pageToken: queryParam(c, 'pageToken'),
      pageSize: queryParam(c, 'maxResults'),
    });
  }
  if (isStatementTimeout(error)) {
    return new ApiError(
      503,
      'backendError',
      `The emulator's database did not answer in time. ${(error as Error).message}`,
    );
  }
  return undefined;
}
