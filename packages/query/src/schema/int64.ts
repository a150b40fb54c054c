const INT64 = /^[+-]?\d+$/;
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/**
 * Parses a 64-bit integer from decimal text (or a JSON number that is a safe integer) exactly;
 * undefined when it is not an integer or lies outside the int64 range.
 *
 * @example
 * ```ts
 * parseInt64('9223372036854775807'); // 9223372036854775807n
 * ```
 */
export function parseInt64(value: unknown): bigint | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  }
  if (typeof value !== 'string' || value.length > 21 || !INT64.test(value)) return undefined;
  const n = BigInt(value);
  return n < MIN || n > MAX ? undefined : n;
}
