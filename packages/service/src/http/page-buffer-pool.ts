/** The part of a Node `ServerResponse` the pool listens to. */
interface Outgoing {
  once(event: 'finish', listener: () => void): unknown;
}

/**
 * Reusable buffers for list pages written to a Node socket. A page of 500 rules is about 410 kB;
 * a fresh buffer per answer is garbage the collector then chases (about a seventh of the server's
 * time under load, measured). A buffer goes back to the pool only when its response has
 * `finish`ed, that is when Node has handed every byte to the operating system; a response that
 * closes unfinished (the client went away mid-write) never returns its buffer, which the garbage
 * collector then takes. Without a socket (`app.fetch` in tests or another server) every page
 * gets a fresh buffer.
 *
 * Bounded: at most `maxBuffers` idle buffers of at most `maxBytes` each; larger pages always get a
 * fresh one.
 *
 * @example
 * ```ts
 * const pool = new PageBufferPool();
 * const body = pool.take(length, c.env?.outgoing); // released when the answer is sent
 * ```
 */
export class PageBufferPool {
  private readonly idle: ArrayBuffer[] = [];

  constructor(
    private readonly maxBuffers = 8,
    private readonly maxBytes = 2 * 1024 * 1024,
  ) {}

  /** How many idle buffers the pool holds. */
  get size(): number {
    return this.idle.length;
  }

  /**
   * A buffer of exactly `length` bytes (contents unspecified), reused if the pool has one large
   * enough and `outgoing` is a response whose finish releases it.
   */
  take(length: number, outgoing: Outgoing | undefined): Uint8Array<ArrayBuffer> {
    if (!outgoing || length > this.maxBytes) return new Uint8Array(length);
    const at = this.idle.findIndex((buffer) => buffer.byteLength >= length);
    const buffer =
      at >= 0
        ? this.idle.splice(at, 1)[0]!
        : new ArrayBuffer(Math.min(this.maxBytes, 2 ** Math.ceil(Math.log2(Math.max(length, 1)))));
    outgoing.once('finish', () => {
      if (this.idle.length < this.maxBuffers) this.idle.push(buffer);
    });
    return new Uint8Array(buffer, 0, length);
  }
}
