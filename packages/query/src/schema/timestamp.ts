/** A point in time: whole seconds since the Unix epoch and nanoseconds within that second. */
export interface Instant {
  seconds: number;
  nanos: number;
}

// RFC 3339 date-time: 0-9 fractional digits, `Z` or a numeric offset (`t`/`z` also accepted).
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

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
 *
 * @example
 * ```ts
 * parseTimestamp('2012-04-21T11:30:00-04:00'); // { seconds: 1335022200, nanos: 0 }
 * ```
 */
export function parseTimestamp(text: string): Instant | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const monthDays = month === 2 && isLeap(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * 60 * (m[9] === '-' ? -1 : 1);
  }
  const fraction = m[7] ?? '';
  const nanos = fraction ? Number(fraction.padEnd(9, '0')) : 0;
  const seconds =
    daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  return { seconds, nanos };
}

/** Orders two instants: negative, zero or positive. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}
