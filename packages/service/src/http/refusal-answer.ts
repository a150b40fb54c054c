import type { Context } from 'hono';
import type { Refusal } from '../core/refusal.js';
import { ApiError } from './api-error.js';
import { isPublisherPath } from './api-paths.js';

/**
 * The shape of an error body, by the API that answers: Compute Engine omits the canonical
 * `status` of an error item; Android Publisher sends it.
 */
export type ErrorShape = 'compute' | 'publisher';

/**
 * The error shape of the API a request's path belongs to: Android Publisher under
 * `/androidpublisher/` (and the spec's `/publisher/` alias), Compute Engine's otherwise.
 *
 * @example
 * ```ts
 * refusalToApiError(error, errorShapeOf(c));
 * ```
 */
export function errorShapeOf(c: Context): ErrorShape {
  return isPublisherPath(c.req.path) ? 'publisher' : 'compute';
}

/**
 * The one mapping of a domain {@link Refusal} to the Google error envelope: the HTTP status,
 * Compute's `reason`, the field as `location`, and (for Android Publisher, which sends it) the
 * canonical status name. The domain modules and stores refuse without knowing HTTP;
 * `error-answer.ts` calls this for every refusal a call throws.
 *
 * @example
 * ```ts
 * refusalToApiError(new Refusal('already_exists', "The resource '…' already exists"), 'compute').status; // 409
 * ```
 */
export function refusalToApiError(refusal: Refusal, shape: ErrorShape): ApiError {
  const { message, field } = refusal;
  const withStatus = (status: string) => (shape === 'publisher' ? { status } : {});
  const at = field ? { location: field } : {};
  switch (refusal.code) {
    case 'invalid_value':
      return new ApiError(400, 'invalid', message, { ...at, ...withStatus('INVALID_ARGUMENT') });
    case 'required':
      return new ApiError(400, 'required', message, { ...at, ...withStatus('INVALID_ARGUMENT') });
    case 'invalid_argument':
      return new ApiError(400, 'badRequest', message, { ...at, ...withStatus('INVALID_ARGUMENT') });
    case 'not_found':
      return new ApiError(404, 'notFound', message, withStatus('NOT_FOUND'));
    case 'already_exists':
      return new ApiError(409, 'alreadyExists', message, withStatus('ALREADY_EXISTS'));
    case 'condition_failed':
      return new ApiError(412, 'conditionNotMet', message, {
        location: 'If-Match',
        locationType: 'header',
        ...withStatus('FAILED_PRECONDITION'),
      });
    case 'failed_precondition':
    case 'already_refunded':
      return new ApiError(400, 'failedPrecondition', message, { status: 'FAILED_PRECONDITION' });
    case 'quota_exceeded':
      return new ApiError(403, 'quotaExceeded', message, withStatus('RESOURCE_EXHAUSTED'));
    default:
      // The store is unusable (locked, a newer schema): nothing the caller did.
      return new ApiError(503, 'backendError', message, withStatus('UNAVAILABLE'));
  }
}
