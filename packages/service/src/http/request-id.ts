import { previewText } from '../core/value-preview.js';
import { errors } from './api-error.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The `requestId` query parameter of a Compute write (insert, setTarget): a UUID other than the
 * zero UUID (400 naming it otherwise), or undefined when absent or empty. A retry with the same
 * requestId answers the operation the first request started. UUIDs compare without case, so it
 * is lowercased here, once: the domain and the stores take it as given.
 *
 * @example
 * ```ts
 * requestIdParam('http://x/…/forwardingRules?requestId=123e4567-e89b-12d3-a456-426614174000');
 * ```
 */
export function requestIdParam(requestId: string | undefined): string | undefined {
  if (requestId === undefined || requestId === '') return undefined;
  if (!UUID.test(requestId) || /^[0-]+$/.test(requestId)) {
    throw errors.invalid(
      `Invalid value for field 'requestId': '${previewText(requestId)}'. Must be a valid UUID other than the zero UUID.`,
      'requestId',
    );
  }
  return requestId.toLowerCase();
}
