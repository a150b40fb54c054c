/**
 * How an API names and bounds its list parameters and writes its list response: `aip` reads
 * `filter`, `orderBy`, `pageSize` and `pageToken` (AIP-132, AIP-158) and always writes the items
 * field; `compute` reads Compute Engine's `maxResults` in place of `pageSize` and, as Compute
 * Engine does, leaves the items field out of an empty page. Both accept each name in lowerCamel
 * and in snake_case (`order_by`, `page_size`, `max_results`), as Google's HTTP gateways do.
 *
 * @example
 * ```ts
 * readListRequest(new URLSearchParams('maxResults=10'), { style: 'compute' }).pageSize; // 10
 * ```
 */
export type ListStyle = 'aip' | 'compute';

/**
 * The former name of {@link ListStyle}.
 *
 * @deprecated Use {@link ListStyle}: "dialect" now means a SQL dialect.
 * @example
 * ```ts
 * const style: ListStyle = 'compute';
 * ```
 */
export type ListDialect = ListStyle;

/**
 * The style list-method options ask for: `style`, else the deprecated `dialect`, else `aip`.
 * (Each options type declares both fields itself, so its public declaration names no internal
 * type.)
 */
export const styleOf = (options: { style?: ListStyle; dialect?: ListStyle }): ListStyle =>
  options.style ?? options.dialect ?? 'aip';
