// The one way the domain and the stores refuse a request. They know nothing of HTTP:
// `http/refusal-answer.ts` turns a refusal into Compute Engine's or Android Publisher's error
// envelope, in one place, so a code is answered the same whoever raised it.

/**
 * Why a request was refused: a stable machine reason, answered per API at the HTTP edge.
 *
 * @example
 * ```ts
 * if (isStoreError(error, 'locked' satisfies StoreErrorCode)) console.error('another process holds the data directory');
 * ```
 */
export type RefusalCode =
  /** A field's value is not acceptable (Compute's 400 `invalid`, naming the field). */
  | 'invalid_value'
  /** A required field is missing (400 `required`, naming the field). */
  | 'required'
  /** The request as a whole is malformed or not acceptable (400 `badRequest`). */
  | 'invalid_argument'
  /** No such resource (404). */
  | 'not_found'
  /** A resource of that name already exists (409). */
  | 'already_exists'
  /** The resource changed since it was read: its fingerprint or version differs (412). */
  | 'condition_failed'
  /** The request cannot be done in the resource's current state (a refund window closed). */
  | 'failed_precondition'
  /** The order has already been refunded. */
  | 'already_refunded'
  /** A quota is used up (403 `quotaExceeded`: no free ephemeral address). */
  | 'quota_exceeded'
  /** Another process holds the data directory. */
  | 'locked'
  /** The database holds a newer schema than this build knows. */
  | 'schema_too_new';

/**
 * A refusal of the domain or a store: what went wrong (`message`, in the API's words), the
 * stable `code`, and the `field` it concerns when there is one. The HTTP edge maps it to the
 * API's error envelope; nothing below the edge builds an HTTP error.
 *
 * @example
 * ```ts
 * throw new StoreError('invalid_value', "Invalid value for field 'resource.name': ''.", 'resource.name');
 * ```
 */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** The field the refusal concerns (`resource.IPProtocol`, `labels`), as the API names it. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

/**
 * Whether a value is a {@link Refusal} with this code.
 *
 * @example
 * ```ts
 * if (isStoreError(error, 'not_found')) return undefined;
 * ```
 */
export function isRefusal(error: unknown, code: RefusalCode): error is Refusal {
  return error instanceof Refusal && error.code === code;
}

/** Shorthands for the refusals Compute Engine's validation words (named after its reasons). */
export const refuse = {
  /** 400 `invalid`: `field`'s value is not acceptable. */
  invalid: (message: string, field?: string) => new Refusal('invalid_value', message, field),
  /** 400 `required`: `field` is missing. */
  required: (message: string, field: string) => new Refusal('required', message, field),
  /** 400 `badRequest`: the request as a whole (an unknown name in the payload). */
  badRequest: (message: string) => new Refusal('invalid_argument', message),
  /** 404 `notFound`. */
  notFound: (message: string) => new Refusal('not_found', message),
  /** 412 `conditionNotMet` (the `If-Match` of the fingerprint). */
  conditionNotMet: (message: string) => new Refusal('condition_failed', message),
  /** 403 `quotaExceeded`. */
  quotaExceeded: (message: string) => new Refusal('quota_exceeded', message),
};
