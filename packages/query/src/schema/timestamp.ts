/**
 * A point in time: whole seconds since the Unix epoch and nanoseconds within that second.
 *
 * @example
 * ```ts
 * const at: Instant | undefined = parseTimestamp('2024-01-01T00:00:00.5Z'); // { seconds: 1704067200, nanos: 500000000 }
 * ```
 */
export interface Instant {
  seconds: number;
  nanos: number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

// Days from 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant's algorithm.
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Parses RFC 3339 text into an {@link Instant}; undefined when the text is not a valid
 * RFC 3339 date-time (wrong shape, month 13, February 30, hour 24, offset beyond ±23:59, …).
 * Accepts 0–9 fractional digits, `Z` or a numeric offset, and lower-case `t`/`z`.
 *
 * @example
 * ```ts
 * parseTimestamp('2012-04-21T11:30:00-04:00'); // { seconds: 1335022200, nanos: 0 }
 * ```
 */
export function parseTimestamp(text: string): Instant | undefined {
  const out = { seconds: 0, nanos: 0 };
  return parseTimestampInto(text, out) ? out : undefined;
}

/**
 * Like {@link parseTimestamp}, but writes into `out` and returns whether the text was valid:
 * filters compare millions of timestamps, and this reads characters without allocating.
 */
export function parseTimestampInto(text: string, out: Instant): boolean {
  const n = text.length;
  if (n < 20) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  const t = text.charCodeAt(10);
  if (
    (year | month | day | hour | minute | second) < 0 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    (t !== 84 && t !== 116) || // T t
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  ) {
    return false;
  }
  let i = 19;
  let nanos = 0;
  if (text.charCodeAt(i) === 46) {
    // .
    let scale = 100_000_000;
    i++;
    const first = i;
    for (; i < n; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      if (i - first >= 9) return false;
      nanos += d * scale;
      scale /= 10;
    }
    if (i === first) return false;
  }
  let offset = 0;
  const zone = text.charCodeAt(i);
  if (zone === 90 || zone === 122) {
    // Z z
    if (i + 1 !== n) return false;
  } else if (zone === 43 || zone === 45) {
    // + -
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 4, 2);
    if (i + 6 !== n || text.charCodeAt(i + 3) !== 58 || oh < 0 || om < 0 || oh > 23 || om > 59) {
      return false;
    }
    offset = (oh * 60 + om) * 60 * (zone === 45 ? -1 : 1);
  } else {
    return false;
  }
  if (month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return false;
  out.seconds =
    daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  out.nanos = nanos;
  return true;
}

/** The decimal number in `text[at, at+count)`, or -1 when any of it is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Orders two instants: negative, zero or positive.
 *
 * @example
 * ```ts
 * compareInstants(parseTimestamp('2024-01-01T00:00:00Z')!, parseTimestamp('2023-12-31T19:00:00-05:00')!); // 0
 * ```
 */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}
