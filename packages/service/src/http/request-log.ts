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
  /**
   * Set when text was cut to {@link REQUEST_LOG_LIMITS}.textChars: each cut field's original
   * length in characters (a 1 MiB URL is kept as its first 2,048 characters).
   */
  truncated?: Partial<Record<'path' | 'query' | 'reason' | 'principal' | 'apiMethod', number>>;
}

/**
 * What the request log keeps: the most recent `entries` requests, at most `textChars` characters
 * of each text field, and at most `bytes` (estimated as UTF-16) in all, oldest dropped first.
 * Requests are caller-controlled: without the bounds, 400 rejected 1 MiB URLs held 1.4 GB.
 *
 * @example
 * ```ts
 * emulator.state.requests.list().every((r) => (r.path.length <= REQUEST_LOG_LIMITS.textChars)); // true
 * ```
 */
export const REQUEST_LOG_LIMITS = {
  entries: 1000,
  textChars: 2048,
  bytes: 8 * 1024 * 1024,
} as const;

const TEXT_FIELDS = ['path', 'query', 'reason', 'principal', 'apiMethod'] as const;
/** Numbers, the method and the time, estimated. */
const FIXED_BYTES = 128;

/** The most recent requests, oldest dropped first, within {@link REQUEST_LOG_LIMITS}. */
export class RequestLog {
  private records: { record: RequestRecord; bytes: number }[] = [];
  private start = 0;
  private totalBytes = 0;

  constructor(
    private readonly capacity: number = REQUEST_LOG_LIMITS.entries,
    private readonly maxBytes: number = REQUEST_LOG_LIMITS.bytes,
  ) {}

  /** Keeps the request, its text cut to the limits; returns what was kept. */
  add(record: RequestRecord): RequestRecord {
    const kept = bounded(record);
    const bytes = FIXED_BYTES + 2 * TEXT_FIELDS.reduce((sum, f) => sum + (kept[f]?.length ?? 0), 0);
    this.records.push({ record: kept, bytes });
    this.totalBytes += bytes;
    while (
      this.records.length - this.start > this.capacity ||
      (this.totalBytes > this.maxBytes && this.records.length - this.start > 1)
    ) {
      this.totalBytes -= this.records[this.start]!.bytes;
      this.start++;
    }
    // Compact now and then, so dropping the oldest costs O(1) amortised.
    if (this.start > 1024 && this.start * 2 > this.records.length) {
      this.records = this.records.slice(this.start);
      this.start = 0;
    }
    return kept;
  }

  /** The kept requests, oldest first. */
  list(): RequestRecord[] {
    return this.records.slice(this.start).map((r) => r.record);
  }

  /** The estimated bytes the kept requests take. */
  bytes(): number {
    return this.totalBytes;
  }

  clear(): void {
    this.records = [];
    this.start = 0;
    this.totalBytes = 0;
  }
}

function bounded(record: RequestRecord): RequestRecord {
  let kept = record;
  for (const field of TEXT_FIELDS) {
    const text = record[field];
    if (text === undefined || text.length <= REQUEST_LOG_LIMITS.textChars) continue;
    kept = {
      ...kept,
      [field]: text.slice(0, REQUEST_LOG_LIMITS.textChars),
      truncated: { ...kept.truncated, [field]: text.length },
    };
  }
  return kept;
}
