import type { ListPage, ListRequest } from '@listkit/query';
import type { AddressPoolKind } from '../forwarding-rules/address-pool.js';
import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import { type ScopeRef, scopeParent } from '../names/scopes.js';
import type { OperationJson } from '../operations/operations.js';
import type { OrderState } from '../orders/order.js';

/**
 * A project and region: the parent of forwarding rules and regional operations.
 *
 * @example
 * ```ts
 * const east: RegionRef = { project: 'my-project', region: 'us-east1' };
 * ```
 */
export interface RegionRef {
  readonly project: string;
  readonly region: string;
}

/**
 * A list call without its parent (the store scopes it).
 *
 * @example
 * ```ts
 * const request: StoreListRequest = { filter: 'labels.env = prod', pageSize: 500 };
 * await store.rules.list(east, request);
 * ```
 */
export type StoreListRequest = Omit<ListRequest, 'parent'>;

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
 * What accompanies a write of a forwarding rule: the operation recorded with it.
 *
 * @example
 * ```ts
 * const write: RuleWrite = { requestId: 'retry-1', operation: (rule) => newOperationFor(rule) };
 * await store.rules.insert(east, rule, write);
 * ```
 */
export interface RuleWrite {
  /** A retry with the same requestId in the region gets the original operation back. */
  readonly requestId?: string;
  /** The operation to record in the same transaction, given the rule written (or deleted). */
  readonly operation: (rule: ForwardingRuleJson) => NewOperation;
}

/**
 * A write's outcome: the operation, and whether it is an earlier one (a requestId retry).
 *
 * @example
 * ```ts
 * const { operation, replayed } = await store.rules.insert(east, rule, write);
 * if (replayed) console.log('a retry: nothing was written');
 * ```
 */
export interface WriteResult {
  readonly operation: OperationRecord;
  /** True when the requestId was seen before: nothing was written and `rule` is absent. */
  readonly replayed: boolean;
  readonly rule?: ForwardingRuleJson;
}

/**
 * What a rule write asks of its region while the region's writes are serialised (on PostgreSQL
 * under a transaction lock, so two processes cannot both pass it with clashing rules or take one
 * address). The store reads only what this needs, never every rule of the region:
 * 1. `allocate`: when the rule has no `IPAddress`, the store sets the pool's lowest address no
 *    rule of the region uses (403 `quotaExceeded` when there is none), after making sure the
 *    name is free;
 * 2. `check`: given the rule (address set) and the region's other stored rules at its address
 *    (canonical form, `clashAddressOf`; never a rule of the same name), throws to refuse the
 *    write or returns the rule to store (the clash rule adds `baseForwardingRule`; fingerprints
 *    depend on the final fields). `regionCheckFor` builds the emulator's.
 *
 * @example
 * ```ts
 * const check: RegionCheck = { allocate: 'internal', check: (rule, sameAddress) => rule };
 * ```
 */
export interface RegionCheck {
  readonly allocate?: AddressPoolKind;
  readonly check: (
    rule: ForwardingRuleJson,
    sameAddress: readonly ForwardingRuleJson[],
  ) => ForwardingRuleJson;
}

/**
 * Forwarding rules, per project and region.
 *
 * @example
 * ```ts
 * const page = await store.rules.list(east, { pageSize: 500 });
 * const rule = await store.rules.get(east, 'web-1');
 * ```
 */
export interface ForwardingRuleStore {
  /**
   * Stores a new rule (as `check` returns it, with the address `check.allocate` took). A requestId
   * seen before in the region returns the original operation; a name in use throws
   * `already_exists`.
   */
  insert(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    write: RuleWrite & { check?: RegionCheck },
  ): Promise<WriteResult>;
  get(parent: ScopeRef, name: string): Promise<ForwardingRuleJson | undefined>;
  /**
   * Replaces a rule only if its stored `fingerprint` is `expectedFingerprint` (else
   * `condition_failed`; `not_found` when there is no rule of that name).
   */
  update(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    write: RuleWrite & { expectedFingerprint: string; check?: RegionCheck },
  ): Promise<WriteResult>;
  /**
   * Stores a rule as given, without an operation (seed data): replaces a rule of the same name,
   * whose address is given up first. `check` runs as for an insert, while the region's writes
   * are serialised (the seed's address allocation).
   */
  put(parent: ScopeRef, rule: ForwardingRuleJson, check?: RegionCheck): Promise<void>;
  /** Removes a rule (`not_found` when there is none). */
  delete(parent: ScopeRef, name: string, write: RuleWrite): Promise<WriteResult>;
  /** One page of a region's rules: filter, orderBy and page token as AIP-160/158 define them. */
  list(parent: ScopeRef, request: StoreListRequest): Promise<ListPage<ForwardingRuleJson>>;
  /** One page of every region of a project, keyed (and by default ordered) by selfLink. */
  listAggregated(project: string, request: StoreListRequest): Promise<ListPage<ForwardingRuleJson>>;
  /** Every rule, for the control plane. */
  all(): Promise<(ScopeRef & { rule: ForwardingRuleJson })[]>;
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

/**
 * Android Publisher orders.
 *
 * @example
 * ```ts
 * const order = await store.orders.get('com.example.app', 'GPA.1234-5678-9012-34567');
 * ```
 */
export interface OrderStore {
  /** Adds or replaces an order. */
  put(order: OrderState): Promise<void>;
  get(packageName: string, orderId: string): Promise<OrderState | undefined>;
  /**
   * Stores the refunded order only if the stored one has no refund yet: of concurrent refunds
   * one wins, the others get `already_refunded` (`not_found` when there is no such order).
   */
  refund(refunded: OrderState & { refund: NonNullable<OrderState['refund']> }): Promise<OrderState>;
  all(): Promise<OrderState[]>;
}

/**
 * The emulator's own state: settings (clock offset, operation policy, faults) and the request log.
 *
 * @example
 * ```ts
 * await store.state.set('clockOffsetMs', 60_000);
 * const offset = await store.state.get<number>('clockOffsetMs'); // 60000
 * ```
 */
export interface EmulatorStateStore {
  /** A setting as JSON, or undefined. */
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  /** Appends to the request log, keeping the newest `capacity` entries. */
  appendRequest(entry: Readonly<Record<string, unknown>>, capacity: number): Promise<void>;
  /** The request log, oldest first. */
  requests(): Promise<Record<string, unknown>[]>;
}

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
  /** Forgets everything (the control plane's reset). */
  reset(): Promise<void>;
  /** Releases connections and locks. */
  close(): Promise<void>;
}

/**
 * `projects/p/regions/r`, as list bindings and keys name a region; `projects/p/global` for the
 * global scope (no region), whose rules and operations the same stores keep.
 *
 * @example
 * ```ts
 * regionParent({ project: 'p', region: 'us-east1' }); // 'projects/p/regions/us-east1'
 * regionParent({ project: 'p' }); // 'projects/p/global'
 * ```
 */
export const regionParent = (parent: ScopeRef) => scopeParent(parent);

/**
 * The parent bound into a list's page tokens: the collection, not only its region, so that a
 * forwarding-rules token is refused by the operations list of the same region (as the routes do).
 *
 * @example
 * ```ts
 * tokenParent({ project: 'p', region: 'r' }, 'operations'); // 'projects/p/regions/r/operations'
 * ```
 */
export const tokenParent = (parent: ScopeRef, collection: 'forwardingRules' | 'operations') =>
  `${scopeParent(parent)}/${collection}`;

/**
 * The parent bound into the aggregated list's page tokens.
 *
 * @example
 * ```ts
 * aggregatedTokenParent('p'); // 'projects/p/aggregated/forwardingRules'
 * ```
 */
export const aggregatedTokenParent = (project: string) =>
  `projects/${project}/aggregated/forwardingRules`;
