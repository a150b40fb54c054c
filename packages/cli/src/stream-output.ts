// Matches on their way to stdout while the input is still being read: gathered while one chunk of
// input is checked, then written together before the next chunk is read, and the reading waits
// while stdout cannot take more (backpressure: a slow reader of the output slows the reading, so
// memory stays bounded).

export class StreamOutput {
  private parts: string[] = [];

  constructor(private readonly write_: (chunk: string) => Promise<void>) {}

  write(text: string): void {
    this.parts.push(text);
  }

  /** Writes what was gathered; resolves when stdout can take more. Undefined: nothing to wait for. */
  flush(): Promise<void> | undefined {
    if (this.parts.length === 0) return undefined;
    const text = this.parts.join('');
    this.parts = [];
    return this.write_(text);
  }

  /** Forgets what was gathered and not yet written (an error ends the run). */
  discard(): void {
    this.parts = [];
  }
}
