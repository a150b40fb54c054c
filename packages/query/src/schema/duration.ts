/**
 * A signed length of time: whole seconds and nanoseconds, both with the same sign.
 *
 * @example
 * ```ts
 * const d: Duration | undefined = parseDuration('-1.5s'); // { seconds: -1, nanos: -500000000 }
 * ```
 */
export interface Duration {
  seconds: number;
  nanos: number;
}

// Protobuf JSON duration text: optional sign, seconds, up to 9 fractional digits, then `s`.
const DURATION = /^([+-])?(\d{1,12})(?:\.(\d{1,9}))?s$/;

// ISO 8601 durations of fixed length (days and smaller), as JSON Schema's `format: duration`
// values are written: `PT1.5S`, `P1DT2H`, `-PT30M`. Years, months and weeks are refused: a month
// has no one length to compare by.
const ISO_DURATION =
  /^([+-])?P(?!$)(?:(\d{1,8})D)?(?:T(?=\d)(?:(\d{1,9})H)?(?:(\d{1,10})M)?(?:(\d{1,12})(?:[.,](\d{1,9}))?S)?)?$/;

/**
 * Parses duration text such as `20s`, `1.5s` or `-0.000000001s` (protobuf JSON), or an ISO 8601
 * duration of days, hours, minutes and seconds such as `PT1.5S` or `P1DT2H`; undefined when invalid.
 *
 * @example
 * ```ts
 * parseDuration('1.5s'); // { seconds: 1, nanos: 500000000 }
 * parseDuration('PT1M30S'); // { seconds: 90, nanos: 0 }
 * ```
 */
export function parseDuration(text: string): Duration | undefined {
  const m = DURATION.exec(text);
  if (!m) return text.includes('P') ? parseIsoDuration(text) : undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const seconds = Number(m[2]);
  const nanos = m[3] ? Number(m[3].padEnd(9, '0')) : 0;
  // -0 would compare equal anyway; normalise so printing and equality agree.
  return { seconds: seconds === 0 ? 0 : sign * seconds, nanos: nanos === 0 ? 0 : sign * nanos };
}

function parseIsoDuration(text: string): Duration | undefined {
  const m = ISO_DURATION.exec(text);
  if (!m || text.endsWith('T')) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const whole =
    Number(m[2] ?? 0) * 86_400 +
    Number(m[3] ?? 0) * 3_600 +
    Number(m[4] ?? 0) * 60 +
    Number(m[5] ?? 0);
  // Within what protobuf durations hold (about 10,000 years), and exact in a double.
  if (whole > 315_576_000_000) return undefined;
  const nanos = m[6] ? Number(m[6].padEnd(9, '0')) : 0;
  return { seconds: whole === 0 ? 0 : sign * whole, nanos: nanos === 0 ? 0 : sign * nanos };
}

/**
 * Orders two durations as quantities: negative, zero or positive.
 *
 * @example
 * ```ts
 * compareDurations(parseDuration('90s')!, parseDuration('1.5s')!) > 0; // true
 * ```
 */
export function compareDurations(a: Duration, b: Duration): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}
