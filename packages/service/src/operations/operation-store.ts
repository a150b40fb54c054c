import type { ListPage } from '@listkit/query';
import type { StoreListRequest } from '../core/store-list-request.js';
import type { ScopeRef } from '../names/resource-names.js';
import type { OperationJson } from './operation.js';

// The operations' store port: memory-operation-store.ts and sql-operation-store.ts implement it,
// and the forwarding-rule stores record an operation with every rule write through them.

/**
 * An operation as the emulator starts it: its wire form and what it keeps beside it.
 *
 * @example
 * ```ts
 * const started: NewOperation = { operation, meta: { reads: 0 }, requestId: 'retry-1' };
 * await store.operations.insert(east, started);
 * ```
 */
export interface NewOperation {
  readonly operation: OperationJson;
  /**
   * What the emulator keeps beside the wire form (reads, start time, policy, failure), as JSON.
   * The store keeps it as given.
   */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The request's requestId, already normalised by the caller; unique per region. */
  readonly requestId?: string;
  /** When it completed on the emulator's clock (ms), for retention; absent while RUNNING. */
  readonly doneAt?: number;
}

/**
 * A stored operation; `version` grows with every update (conditional updates compare it).
 *
 * @example
 * ```ts
 * const record = await store.operations.get(east, 'operation-1');
 * if (record) await store.operations.update({ ...record, operation: { ...record.operation, status: 'DONE' } });
 * ```
 */
export interface OperationRecord extends NewOperation, ScopeRef {
  readonly version: number;
}

/**
 * Regional operations, their requestIds and their retention.
 *
 * @example
 * ```ts
 * const running = await store.operations.running(east);
 * await store.operations.expire({ doneBefore: Date.now() - 600_000, keep: 10_000 });
 * ```
 */
export interface OperationStore {
  /** Records an operation (one not tied to a rule write). */
  insert(parent: ScopeRef, operation: NewOperation): Promise<OperationRecord>;
  get(parent: ScopeRef, name: string): Promise<OperationRecord | undefined>;
  byRequestId(parent: ScopeRef, requestId: string): Promise<OperationRecord | undefined>;
  /**
   * Stores a changed operation only if its version is still `record.version` (else
   * `condition_failed`, or `not_found` once deleted). Returns the stored record.
   */
  update(record: OperationRecord): Promise<OperationRecord>;
  /** Forgets an operation; false when there was none. */
  delete(parent: ScopeRef, name: string): Promise<boolean>;
  /** The operations of a region not yet DONE (time may complete them). */
  running(parent: ScopeRef): Promise<OperationRecord[]>;
  list(parent: ScopeRef, request: StoreListRequest): Promise<ListPage<OperationJson>>;
  /**
   * Drops DONE operations completed before `doneBefore`, then the oldest completed beyond
   * `keep`, then (when `keepRunning` is given) the oldest still running beyond `keepRunning`.
   * Returns how many were dropped.
   */
  expire(retention: { doneBefore: number; keep: number; keepRunning?: number }): Promise<number>;
  all(): Promise<OperationRecord[]>;
}
