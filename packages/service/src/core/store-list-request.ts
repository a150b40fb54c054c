import type { ListRequest } from '@listkit/query';

/**
 * A list call without its parent (the store scopes it).
 *
 * @example
 * ```ts
 * const request: StoreListRequest = { filter: 'labels.env = prod', pageSize: 500 };
 * await store.rules.list(east, request);
 * ```
 */
export type StoreListRequest = Omit<ListRequest, 'parent'>;
