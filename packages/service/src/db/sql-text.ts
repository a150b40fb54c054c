/**
 * `$from, $from+1, …` for `count` values.
 *
 * @example
 * ```ts
 * placeholders(3, 2); // '$2, $3, $4'
 * ```
 */
export const placeholders = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
