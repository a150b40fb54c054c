import {
  ADDRESS_POOL_SIZES,
  type AddressPoolKind,
  addressAt,
  poolExhausted,
  poolIndexOf,
} from './address-pool.js';

/** One pool's state: every free position below `next` is queued in `freed`. */
interface PoolState {
  next: number;
  /** A binary min-heap of positions released below `next` (some may be in use again). */
  readonly freed: number[];
  /** What `freed` holds, so a position is queued once: the heap stays within the pool's size. */
  readonly queued: Set<number>;
}

/**
 * The lowest free address of each ephemeral pool of one region, found without walking the pool:
 * a cursor below which every free position has been queued in a min-heap. Taking an address
 * pops the heap (dropping positions a rule has taken meanwhile) or moves the cursor past the
 * addresses in use; the cursor never moves back, so each position is passed once. A take is
 * amortised O(log N), a release O(log N). Which addresses are in use is asked of the owner (the
 * region's address index), so a static address a rule names is never handed out.
 *
 * @example
 * ```ts
 * const used = new Set<string>();
 * const free = new FreeAddresses((a) => used.has(a));
 * used.add(free.take('external', 'us-central1')); // '203.0.113.1'
 * ```
 */
export class FreeAddresses {
  private readonly pools = new Map<AddressPoolKind, PoolState>();

  constructor(private readonly inUse: (address: string) => boolean) {}

  /** Takes over another's cursors and queued positions (copied): a copy of its owner's. */
  copyFrom(other: FreeAddresses): void {
    this.pools.clear();
    for (const [kind, pool] of other.pools) {
      this.pools.set(kind, {
        next: pool.next,
        freed: [...pool.freed],
        queued: new Set(pool.queued),
      });
    }
  }

  /** The lowest address of the pool no rule uses; 403 `quotaExceeded` when there is none. */
  take(kind: AddressPoolKind, region: string | undefined): string {
    const pool = this.pool(kind);
    while (pool.freed.length > 0) {
      const index = popMin(pool.freed);
      pool.queued.delete(index);
      const address = addressAt(kind, index);
      if (!this.inUse(address)) return address;
    }
    const size = ADDRESS_POOL_SIZES[kind];
    while (pool.next < size) {
      const address = addressAt(kind, pool.next++);
      if (!this.inUse(address)) return address;
    }
    throw poolExhausted(kind, region);
  }

  /** Tells that no rule uses `address` any more (canonical form): a later take may return it. */
  released(address: string): void {
    const at = poolIndexOf(address);
    if (!at) return;
    const pool = this.pools.get(at.kind);
    // Above the cursor the walk finds it; below, only the heap remembers it.
    if (!pool || at.index >= pool.next || pool.queued.has(at.index)) return;
    pool.queued.add(at.index);
    pushMin(pool.freed, at.index);
  }

  private pool(kind: AddressPoolKind): PoolState {
    let pool = this.pools.get(kind);
    if (!pool) {
      pool = { next: 0, freed: [], queued: new Set() };
      this.pools.set(kind, pool);
    }
    return pool;
  }
}

function pushMin(heap: number[], value: number): void {
  let i = heap.push(value) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent]! <= value) break;
    heap[i] = heap[parent]!;
    i = parent;
  }
  heap[i] = value;
}

function popMin(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  if (heap.length === 0) return top;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && heap[right]! < heap[left]! ? right : left;
    if (heap[child]! >= last) break;
    heap[i] = heap[child]!;
    i = child;
  }
  heap[i] = last;
  return top;
}
