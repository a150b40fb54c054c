// How values are written for the database: shared by both layouts, the filter and the keyset.

/** Nanoseconds as exact decimal text: how timestamps and durations are stored and compared. */
export function nanosText(seconds: number, nanos: number): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

/**
 * A timestamp with whole microseconds as PostgreSQL input text: RFC 3339 in UTC for
 * `timestamptz`, the same wall-clock time without the zone for `timestamp` (read as UTC).
 */
export function microsecondText(
  seconds: number,
  nanos: number,
  storage: 'timestamptz' | 'timestamp',
): string {
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  const text = `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}`;
  return storage === 'timestamptz' ? `${text}Z` : text;
}

/** `creationTimestamp` → `creation_timestamp`, `IPAddress` → `ip_address`, `a.b` → `a__b`. */
export const snakeCase = (path: string) =>
  path
    .split('.')
    .map((s) =>
      s
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
        .toLowerCase(),
    )
    .join('__')
    // PostgreSQL cuts identifiers at 63 bytes; cut here so that a clash is reported.
    .slice(0, 63);

/** Whether a value is a JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
