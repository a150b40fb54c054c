import { ListkitError } from '@listkit/query';
import type { Context } from 'hono';
import { Refusal } from '../core/refusal.js';
import { isStatementTimeout } from '../db/statement-timeout.js';
import { ApiError } from './api-error.js';
import { listErrorToApiError } from './list-errors.js';
import { listInputsAsWritten } from './list-params.js';
import { errorShapeOf, refusalToApiError } from './refusal-answer.js';

/**
 * The one mapping of what a call throws to the Google error envelope: an {@link ApiError} as it
 * is, a domain {@link Refusal} in the error shape of the API the path
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
  if (error instanceof Refusal) return refusalToApiError(error, errorShapeOf(c));
  if (error instanceof ListkitError) {
    return listErrorToApiError(error, listInputsAsWritten(c));
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
