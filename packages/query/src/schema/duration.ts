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

/**
 * Parses duration text such as `20s`, `1.5s` or `-0.000000001s`; undefined when invalid.
 *
 * @example
 * ```ts
 * parseDuration('1.5s'); // { seconds: 1, nanos: 500000000 }
 * ```
 */
export function parseDuration(text: string): Duration | undefined {
  const m = DURATION.exec(text);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const seconds = Number(m[2]);
  const nanos = m[3] ? Number(m[3].padEnd(9, '0')) : 0;
  // -0 would compare equal anyway; normalise so printing and equality agree.
  return { seconds: seconds === 0 ? 0 : sign * seconds, nanos: nanos === 0 ? 0 : sign * nanos };
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
