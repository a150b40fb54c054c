import { refuse } from '../core/refusal.js';
import type { StoreImage } from './store-image.js';

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
 * The named snapshots a store keeps: their exported text, and their state made ready to put
 * back ({@link EmulatorStore.restore}). In this process's memory for the memory store (the
 * state checked and indexed), in the database for the SQL stores (the text in
 * `listkit_snapshots`, the rows in a copy of each state table), where every process sharing it
 * sees them.
 *
 * @example
 * ```ts
 * await store.snapshots.put({ name: 'seeded', takenAt, bytes }, text, image, limits);
 * const kept = await store.snapshots.get('seeded');
 * ```
 */
export interface SnapshotShelf {
  /**
   * Keeps a snapshot (its text, and `image`, the state it holds) under its name, replacing one
   * of that name; refuses (`quota_exceeded`, naming the limit) when the shelf would then hold
   * more than `limits` allow, and throws when the store cannot hold the image (a value of the
   * wrong type): the shelf is as it was then.
   */
  put(info: SnapshotInfo, text: string, image: StoreImage, limits: SnapshotLimits): Promise<void>;
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
 * Snapshots kept in this process's memory (the memory store's shelf), each with its state as
 * `prepare` made it (the store's tables, checked and indexed) for {@link prepared}.
 *
 * @example
 * ```ts
 * const shelf = memorySnapshotShelf((image) => tablesOf(image));
 * const tables = shelf.prepared('seeded', takenAt);
 * ```
 */
export function memorySnapshotShelf<P>(
  prepare: (image: StoreImage) => P,
): SnapshotShelf & { prepared(name: string, takenAt: string): P | undefined } {
  const kept = new Map<string, { info: SnapshotInfo; text: string; prepared: P }>();
  return {
    put: async (info, text, image, limits) => {
      let bytes = 0;
      for (const [name, entry] of kept) if (name !== info.name) bytes += entry.info.bytes;
      const refusal = overLimits(
        info,
        { count: kept.size - (kept.has(info.name) ? 1 : 0), bytes },
        limits,
      );
      if (refusal) throw refusal;
      kept.set(info.name, { info, text, prepared: prepare(image) });
    },
    get: async (name) => kept.get(name),
    info: async (name) => kept.get(name)?.info,
    list: async () =>
      [...kept.values()].map((entry) => entry.info).sort((a, b) => (a.name < b.name ? -1 : 1)),
    delete: async (name) => kept.delete(name),
    prepared: (name, takenAt) => {
      const entry = kept.get(name);
      return entry?.info.takenAt === takenAt ? entry.prepared : undefined;
    },
  };
}
