/**
 * One handled request, as kept in the ring buffer and written as a log line.
 *
 * @example
 * ```ts
 * await createEmulator({ log: (record: RequestRecord) => console.log(record.method, record.path, record.status, record.apiMethod) });
 * ```
 */
export interface RequestRecord {
  time: string;
  method: string;
  path: string;
  query: string;
  status: number;
  durationMs: number;
  /** The API method, such as `compute.forwardingRules.insert`, when one was matched. */
  apiMethod?: string;
  /** Who called, when authenticated. */
  principal?: string;
  /** The error reason of a failed request. */
  reason?: string;
}

/** The most recent requests, oldest dropped first. */
export class RequestLog {
  private readonly records: RequestRecord[] = [];

  constructor(private readonly capacity = 1000) {}

  add(record: RequestRecord): void {
    this.records.push(record);
    if (this.records.length > this.capacity)
      this.records.splice(0, this.records.length - this.capacity);
  }

  /** The kept requests, oldest first. */
  list(): RequestRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records.length = 0;
  }
}
