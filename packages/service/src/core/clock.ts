/**
 * The earliest and latest instants the clock may show: google.protobuf.Timestamp's range
 * (0001-01-01 to 9999-12-31), which is also what RFC 3339 text can write. Timestamps in answers,
 * page-token expiry and refund windows all derive from the clock, so it never leaves this range.
 */
export const CLOCK_MIN_EPOCH_MS = Date.parse('0001-01-01T00:00:00.000Z');
/** See {@link CLOCK_MIN_EPOCH_MS}. */
export const CLOCK_MAX_EPOCH_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether the clock may show `epochMs` (a finite instant within the Timestamp range). */
export function isClockTime(epochMs: number): boolean {
  return Number.isFinite(epochMs) && epochMs >= CLOCK_MIN_EPOCH_MS && epochMs <= CLOCK_MAX_EPOCH_MS;
}

/**
 * The emulator's clock. Operation completion, retention and refund rules read time from it, so
 * tests can move time forward instead of waiting.
 *
 * @example
 * ```ts
 * const clock = new EmulatorClock();
 * clock.advance(60_000); // one minute later, on the emulator
 * ```
 */
export class EmulatorClock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  constructor(private readonly realNow: () => number = Date.now) {}

  /** Milliseconds since the epoch, on the emulator; always within the Timestamp range. */
  now(): number {
    const now = (this.frozenAt ?? this.realNow()) + this.offsetMs;
    return Math.min(Math.max(now, CLOCK_MIN_EPOCH_MS), CLOCK_MAX_EPOCH_MS);
  }

  /** The current time as RFC 3339 text with milliseconds and a `-07:00`-style offset of `Z`. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * Moves the clock forward (or back, with a negative amount). Throws a RangeError, and leaves
   * the clock as it was, when the result would be outside the Timestamp range.
   */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError('advance needs a finite number of milliseconds');
    this.set(this.now() + ms);
  }

  /**
   * Sets the time; the clock keeps running from there unless frozen. Throws a RangeError, and
   * leaves the clock as it was, for an instant outside the Timestamp range.
   */
  set(epochMs: number): void {
    if (!isClockTime(epochMs)) {
      throw new RangeError(
        `the clock can show 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, not ${epochMs} ms since the epoch`,
      );
    }
    this.offsetMs = epochMs - (this.frozenAt ?? this.realNow());
  }

  /** Whether the clock is stopped ({@link freeze}). */
  get frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  /** Stops the clock at the current time (true) or lets it run again (false). */
  freeze(frozen: boolean): void {
    const now = this.now();
    this.frozenAt = frozen ? this.realNow() : undefined;
    this.set(now);
  }

  /** Back to real time. */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = undefined;
  }
}
