import type { ForwardingRuleStore } from '../forwarding-rules/forwarding-rule-store.js';
import type { OperationStore } from '../operations/operation-store.js';
import type { OrderStore } from '../orders/order-store.js';
import type { EmulatorStateStore } from '../state/state-store.js';
import type { SnapshotShelf } from './snapshot-shelf.js';
import type { StoreImage } from './store-image.js';

// The emulator's store is the per-resource stores composed; each resource's port sits in its
// folder beside its memory and SQL implementations. Re-exported here for the public API.
export type { StoreListRequest } from '../core/store-list-request.js';
export type {
  ForwardingRuleStore,
  RegionCheck,
  RuleWrite,
  ScopeCheck,
  WriteResult,
} from '../forwarding-rules/forwarding-rule-store.js';
export {
  aggregatedTokenParent,
  type RegionRef,
  regionParent,
  tokenParent,
} from '../names/resource-names.js';
export type {
  NewOperation,
  OperationRecord,
  OperationStore,
} from '../operations/operation-store.js';
export type { OrderStore } from '../orders/order-store.js';
export type { EmulatorStateStore } from '../state/state-store.js';
export type { SnapshotInfo, SnapshotLimits, SnapshotShelf } from './snapshot-shelf.js';
export type { StoreImage } from './store-image.js';

/**
 * Everything the emulator keeps, behind one contract (memory, PGlite or PostgreSQL).
 *
 * @example
 * ```ts
 * const store = await openStore({ kind: 'pglite', dataDir: '/var/lib/listkit' }, { pageTokens });
 * try {
 *   await store.rules.list({ project: 'my-project', region: 'us-east1' }, { pageSize: 10 });
 * } finally {
 *   await store.close();
 * }
 * ```
 */
export interface EmulatorStore {
  readonly kind: 'memory' | 'pglite' | 'postgres';
  readonly rules: ForwardingRuleStore;
  readonly operations: OperationStore;
  readonly orders: OrderStore;
  readonly state: EmulatorStateStore;
  /** The named snapshots kept with the store (a reset leaves them). */
  readonly snapshots: SnapshotShelf;
  /**
   * Everything the store holds at one instant: no write is seen in part, whatever runs
   * concurrently (memory: one synchronous read; SQL: one REPEATABLE READ transaction).
   */
  capture(): Promise<StoreImage>;
  /**
   * Replaces everything the store holds by an image, atomically: a concurrent read sees the old
   * state or the new, and a write in flight lands before the replacement (and is undone by it)
   * or after it (memory: one synchronous step; SQL: one transaction that waits for the writes
   * in flight and holds new ones back).
   */
  replace(image: StoreImage): Promise<void>;
  /**
   * Returns to a kept snapshot (see {@link SnapshotShelf.put}) as {@link replace} would to its
   * image, from the state the shelf made ready (memory: copies of the checked, indexed tables;
   * SQL: the rows copied within the database). False, and nothing changed, when no snapshot of
   * that name taken at `takenAt` is kept (another process replaced or deleted it meanwhile).
   */
  restore(name: string, takenAt: string): Promise<boolean>;
  /** Forgets everything (the control plane's reset); the snapshots stay. */
  reset(): Promise<void>;
  /** Releases connections and locks. */
  close(): Promise<void>;
}
