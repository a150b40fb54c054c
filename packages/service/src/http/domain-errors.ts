import type { Context } from 'hono';
import type { DomainError } from '../core/refusal.js';
import { StoreError } from '../core/store-error.js';
import { ApiError } from './api-error.js';

/** Which API answers: Compute Engine omits the canonical `status`; Android Publisher sends it. */
export type ErrorDialect = 'compute' | 'publisher';

/**
 * The dialect of the API a request's path belongs to: Android Publisher under
 * `/androidpublisher/` (and the spec's `/publisher/` alias), Compute Engine's otherwise.
 *
 * @example
 * ```ts
 * domainErrorToApiError(error, errorDialectOf(c));
 * ```
 */
export function errorDialectOf(c: Context): ErrorDialect {
  const path = c.req.path;
  return path.startsWith('/androidpublisher/') || path.startsWith('/publisher/')
    ? 'publisher'
    : 'compute';
}

/**
 * The one mapping of domain errors ({@link StoreError}, {@link DomainError}) to the Google error
 * envelope: the domain modules and stores raise them without knowing HTTP (`error-answer.ts`
 * calls this for them).
 *
 * @example
 * ```ts
 * domainErrorToApiError(new StoreError('already_exists', "The resource '…' already exists"), 'compute').status; // 409
 * ```
 */
export function domainErrorToApiError(
  error: StoreError | DomainError,
  dialect: ErrorDialect,
): ApiError {
  const withStatus = (status: string) => (dialect === 'publisher' ? { status } : {});
  if (error instanceof StoreError) {
    switch (error.code) {
      case 'not_found':
        return new ApiError(404, 'notFound', error.message, withStatus('NOT_FOUND'));
      case 'already_exists':
        return new ApiError(409, 'alreadyExists', error.message, withStatus('ALREADY_EXISTS'));
      case 'condition_failed':
        return new ApiError(412, 'conditionNotMet', error.message, {
          location: 'If-Match',
          locationType: 'header',
          ...withStatus('FAILED_PRECONDITION'),
        });
      case 'already_refunded':
        return new ApiError(400, 'failedPrecondition', error.message, {
          status: 'FAILED_PRECONDITION',
        });
      default:
        // The store is unusable (locked, a newer schema): nothing the caller did.
        return new ApiError(503, 'backendError', error.message, withStatus('UNAVAILABLE'));
    }
  }
  return error.code === 'failed_precondition'
    ? new ApiError(400, 'failedPrecondition', error.message, { status: 'FAILED_PRECONDITION' })
    : new ApiError(400, 'badRequest', error.message, withStatus('INVALID_ARGUMENT'));
}
