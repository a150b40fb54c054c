import { type ListInput, resolvePageSize } from '@listkit/query';
import type { Context } from 'hono';
import { booleanParam, queryParam, uint32Param } from './query.js';

/** Compute's name for the page size (AIP-158's `pageSize`): the one place it is mapped. */
export const PAGE_SIZE_PARAMETER = 'maxResults';

/** The list parameters of a Compute Engine list call, read once and checked. */
export interface ListParams {
  filter?: string;
  orderBy?: string;
  pageToken?: string;
  /** From `maxResults`: 1..500, 500 when unset or 0 (larger values are lowered to 500). */
  pageSize: number;
}

/**
 * Reads `filter`, `orderBy`, `pageToken` and `maxResults` from the request; `maxResults` is
 * checked here, once (an unsigned 32-bit integer, then Compute's default and maximum of 500).
 * `returnPartialSuccess` and `includeAllScopes` are accepted as booleans.
 *
 * @example
 * ```ts
 * const page = await state.operations.page(regionOf(c), { ...listParams(c), context: { project } });
 * ```
 */
export function listParams(c: Context): ListParams {
  booleanParam(queryParam(c, 'returnPartialSuccess'), 'returnPartialSuccess'); // nothing is ever unreachable
  booleanParam(queryParam(c, 'includeAllScopes'), 'includeAllScopes');
  return {
    filter: queryParam(c, 'filter'),
    orderBy: queryParam(c, 'orderBy'),
    pageToken: queryParam(c, 'pageToken') || undefined,
    pageSize: resolvePageSize(
      uint32Param(queryParam(c, PAGE_SIZE_PARAMETER), PAGE_SIZE_PARAMETER),
      {
        default: 500,
        max: 500,
      },
    ),
  };
}

/** The list inputs as the request gave them, for error messages: what each problem quotes. */
export type ListInputsAsWritten = Partial<Record<ListInput, string>>;

/**
 * The list inputs as the request wrote them, unchecked: what an error about one of them quotes.
 *
 * @example
 * ```ts
 * listErrorToApiError(error, listInputsAsWritten(c));
 * ```
 */
export function listInputsAsWritten(c: Context): ListInputsAsWritten {
  return {
    filter: queryParam(c, 'filter'),
    orderBy: queryParam(c, 'orderBy'),
    pageToken: queryParam(c, 'pageToken'),
    pageSize: queryParam(c, PAGE_SIZE_PARAMETER),
  };
}

/**
 * A Compute Engine list answer: `items` only when there are some, `nextPageToken` only when more.
 *
 * @example
 * ```ts
 * jsonAnswer(c, listAnswer('compute#operationList', id, selfLink, page));
 * ```
 */
export function listAnswer<T>(
  kind: string,
  id: string,
  selfLink: string,
  page: { items: T[]; nextPageToken?: string },
) {
  return {
    kind,
    id,
    ...(page.items.length > 0 ? { items: page.items } : {}),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    selfLink,
  };
}
