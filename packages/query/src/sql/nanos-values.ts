import { invalid } from '../schema/check-resource.js';

// Timestamps and durations held as nanosecond counts (SQLite, MySQL, Spanner: the representation
// each dialect chose for listkit's layout), read back from a column of your own as the
// resource's JSON form.

const BILLION = 1_000_000_000n;

/** The fraction as the canonical JSON form writes it: none, or 3, 6 or 9 digits. */
function fraction(nanos: bigint): string {
  if (nanos === 0n) return '';
  const digits = nanos.toString().padStart(9, '0');
  if (digits.endsWith('000000')) return `.${digits.slice(0, 3)}`;
  if (digits.endsWith('000')) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}

/**
 * Nanoseconds since 1970 as RFC 3339 in UTC (`2024-01-01T00:00:00.5Z` is written
 * `…00.500Z`), or undefined outside years 0001–9999.
 *
 * @example
 * ```ts
 * timestampOfNanos(1704067200123456789n); // '2024-01-01T00:00:00.123456789Z'
 * ```
 */
export function timestampOfNanos(nanos: bigint): string | undefined {
  let seconds = nanos / BILLION;
  let rest = nanos % BILLION;
  if (rest < 0n) {
    rest += BILLION;
    seconds -= 1n;
  }
  const date = new Date(Number(seconds) * 1000);
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 1 || year > 9999) return undefined;
  return `${date.toISOString().slice(0, 19)}${fraction(rest)}Z`;
}

/**
 * Nanoseconds as a proto3 duration's JSON form (`1.5s` is written `1.500s`).
 *
 * @example
 * ```ts
 * durationOfNanos(-1500000000n); // '-1.500s'
 * ```
 */
export function durationOfNanos(nanos: bigint): string {
  const negative = nanos < 0n;
  const size = negative ? -nanos : nanos;
  return `${negative ? '-' : ''}${size / BILLION}${fraction(size % BILLION)}s`;
}

/**
 * A nanosecond count a column of your own returned (decimal text, or a number a driver made of
 * it), as the field's JSON form; `bias` is subtracted first (SQLite's fixed-width text adds
 * 10^21). Throws a `ListkitError` naming the path for anything else.
 *
 * @example
 * ```ts
 * readNanos('1704067200000000000', 'timestamp', 0n, 'published'); // '2024-01-01T00:00:00Z'
 * ```
 */
export function readNanos(
  raw: unknown,
  kind: 'timestamp' | 'duration',
  bias: bigint,
  path: string,
): string {
  const text = typeof raw === 'bigint' ? raw.toString() : raw;
  const expected =
    kind === 'timestamp'
      ? 'a timestamp as nanoseconds since 1970 (decimal text)'
      : 'a duration as nanoseconds (decimal text)';
  if (typeof text !== 'string' || !/^-?[0-9]{1,30}$/.test(text)) invalid(path, raw, expected);
  const nanos = BigInt(text as string) - bias;
  if (kind === 'duration') return durationOfNanos(nanos);
  return timestampOfNanos(nanos) ?? invalid(path, raw, `${expected} in years 0001–9999`);
}
