/**
 * Why a store refused a write or a read. The store knows nothing of HTTP: the routes map each
 * code to Compute Engine's or Android Publisher's answer (409, 404, 412, 400).
 *
 * @example
 * ```ts
 * if (isStoreError(error, 'locked' satisfies StoreErrorCode)) console.error('another process holds the data directory');
 * ```
 */
export type StoreErrorCode =
  /** A resource of that name already exists (insert). */
  | 'already_exists'
  /** No such resource. */
  | 'not_found'
  /** The resource changed since it was read: its fingerprint or version differs. */
  | 'condition_failed'
  /** The order has already been refunded. */
  | 'already_refunded'
  /** Another process holds the data directory. */
  | 'locked'
  /** The database holds a newer schema than this build knows. */
  | 'schema_too_new';

/**
 * A domain error of a store (not an HTTP error).
 *
 * @example
 * ```ts
 * try {
 *   await store.rules.insert(parent, rule);
 * } catch (error) {
 *   if (error instanceof StoreError && error.code === 'already_exists') return conflict(error.message);
 *   throw error;
 * }
 * ```
 */
export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * Whether a value is a {@link StoreError} with this code.
 *
 * @example
 * ```ts
 * if (isStoreError(error, 'not_found')) return notFound();
 * ```
 */
export function isStoreError(error: unknown, code: StoreErrorCode): error is StoreError {
  return error instanceof StoreError && error.code === code;
}
