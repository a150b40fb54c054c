import { Refusal } from './refusal.js';

// Compute Engine's words for a resource that is there or is not, in one place: both stores, the
// domain and the routes refuse with these, and clients (and recorded traffic) match the text.

/**
 * `The resource '…' already exists` (409 on the wire).
 *
 * @example
 * ```ts
 * throw resourceAlreadyExists('projects/p/regions/r/forwardingRules/web-1');
 * ```
 */
export const resourceAlreadyExists = (name: string) =>
  new Refusal('already_exists', `The resource '${name}' already exists`);

/**
 * `The resource '…' was not found` (404 on the wire).
 *
 * @example
 * ```ts
 * throw resourceNotFound('projects/p/regions/r/operations/operation-1');
 * ```
 */
export const resourceNotFound = (name: string) =>
  new Refusal('not_found', `The resource '${name}' was not found`);
