/**
 * Why a domain module refused a request, besides what the stores refuse ({@link StoreError}):
 * the domain knows nothing of HTTP, and `http/domain-errors.ts` answers each code in the API's
 * envelope.
 */
export type DomainErrorCode =
  /** The request cannot be done in the resource's current state (a refund window closed). */
  | 'failed_precondition'
  /** A value given is not acceptable (a seed's timestamp). */
  | 'invalid_argument';

/**
 * A refusal of a domain module (orders, operations, forwarding rules), mapped to HTTP in one
 * place.
 *
 * @example
 * ```ts
 * throw new DomainError('failed_precondition', 'Order GPA.1 has already been refunded.');
 * ```
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
