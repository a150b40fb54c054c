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

  /** Milliseconds since the epoch, on the emulator. */
  now(): number {
    return (this.frozenAt ?? this.realNow()) + this.offsetMs;
  }

  /** The current time as RFC 3339 text with milliseconds and a `-07:00`-style offset of `Z`. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves the clock forward (or back, with a negative amount). */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError('advance needs a finite number of milliseconds');
    this.offsetMs += ms;
  }

  /** Sets the time; the clock keeps running from there unless frozen. */
  set(epochMs: number): void {
    this.offsetMs = epochMs - (this.frozenAt ?? this.realNow());
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
