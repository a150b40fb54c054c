import { refuse } from '../core/refusal.js';

/**
 * What is known of a kept snapshot without reading it.
 *
 * @example
 * ```ts
 * const info: SnapshotInfo = { name: 'seeded', takenAt: '2026-01-01T00:00:00.000Z', bytes: 2048 };
 * ```
 */
export interface SnapshotInfo {
  readonly name: string;
  /** When it was taken, on the emulator's clock (RFC 3339). */
  readonly takenAt: string;
  /** The size of its text (UTF-8 bytes), as exported. */
  readonly bytes: number;
}

/**
 * How much the shelf keeps: at most `count` snapshots of at most `bytes` together.
 *
 * @example
 * ```ts
 * const limits: SnapshotLimits = { count: 64, bytes: 256 * 1024 * 1024 };
 * ```
 */
export interface SnapshotLimits {
  readonly count: number;
  readonly bytes: number;
}

/**
 * The named snapshots a store keeps, as their exported text: in this process's memory for the
 * memory store, in the database (`listkit_snapshots`) for the SQL stores, where every process
 * sharing it sees them.
 *
 * @example
 * ```ts
 * await store.snapshots.put({ name: 'seeded', takenAt, bytes }, text, limits);
 * const kept = await store.snapshots.get('seeded');
 * ```
 */
export interface SnapshotShelf {
  /**
   * Keeps a snapshot under its name, replacing one of that name; refuses (`quota_exceeded`,
   * naming the limit) when the shelf would then hold more than `limits` allow.
   */
  put(info: SnapshotInfo, text: string, limits: SnapshotLimits): Promise<void>;
  get(name: string): Promise<{ info: SnapshotInfo; text: string } | undefined>;
  /** What is known of a snapshot, without its text. */
  info(name: string): Promise<SnapshotInfo | undefined>;
  /** Every snapshot kept, by name. */
  list(): Promise<SnapshotInfo[]>;
  /** Whether there was one of that name. */
  delete(name: string): Promise<boolean>;
}

/**
 * The refusal of a put that would pass the shelf's limits, or undefined when it fits: `kept` are
 * the other snapshots (not the one of the same name, which the put replaces).
 *
 * @example
 * ```ts
 * const refusal = overLimits(info, { count: 3, bytes: 9000 }, limits);
 * if (refusal) throw refusal;
 * ```
 */
export function overLimits(
  info: SnapshotInfo,
  kept: { count: number; bytes: number },
  limits: SnapshotLimits,
) {
  if (kept.count + 1 > limits.count) {
    return refuse.quotaExceeded(
      `snapshot '${info.name}': the emulator keeps at most ${limits.count} snapshots (snapshotLimits.count) and holds ${kept.count}; delete one first`,
    );
  }
  if (kept.bytes + info.bytes > limits.bytes) {
    return refuse.quotaExceeded(
      `snapshot '${info.name}': ${info.bytes} bytes beside the ${kept.bytes} kept would pass the limit of ${limits.bytes} bytes (snapshotLimits.bytes); delete one first`,
    );
  }
  return undefined;
}

/**
 * Snapshots kept in this process's memory (the memory store's shelf).
 *
 * @example
 * ```ts
 * const shelf = memorySnapshotShelf();
 * ```
 */
export function memorySnapshotShelf(): SnapshotShelf {
  const kept = new Map<string, { info: SnapshotInfo; text: string }>();
  return {
    put: async (info, text, limits) => {
      let bytes = 0;
      for (const [name, entry] of kept) if (name !== info.name) bytes += entry.info.bytes;
      const refusal = overLimits(
        info,
        { count: kept.size - (kept.has(info.name) ? 1 : 0), bytes },
        limits,
      );
      if (refusal) throw refusal;
      kept.set(info.name, { info, text });
    },
    get: async (name) => kept.get(name),
    info: async (name) => kept.get(name)?.info,
    list: async () =>
      [...kept.values()].map((entry) => entry.info).sort((a, b) => (a.name < b.name ? -1 : 1)),
    delete: async (name) => kept.delete(name),
  };
}
