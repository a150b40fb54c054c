import type { ListPage } from '@listkit/query';
import type { StoreListRequest } from '../core/store-list-request.js';
import type { ScopeRef } from '../names/resource-names.js';
import type { NewOperation, OperationRecord } from '../operations/operation-store.js';
import type { AddressPoolKind } from './addresses/address-pool.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';

// The forwarding rules' store port: memory-forwarding-rule-store.ts and
// sql-forwarding-rule-store.ts implement it side by side, so a rule both must obey is seen here.

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
 * What a rule write asks of its scope (a region, or a project's global rules) while the scope's
 * writes are serialised (on PostgreSQL under a transaction lock, so two processes cannot both
 * pass it with clashing rules or take one address). The store reads only what this needs, never
 * every rule of the scope:
 * 1. `allocate`: when the rule has no `IPAddress`, the store sets the pool's lowest address no
 *    rule of the scope uses (403 `quotaExceeded` when there is none), after making sure the
 *    name is free;
 * 2. `check`: given the rule (address set) and the scope's other stored rules at its address
 *    (canonical form, `clashAddressOf`; never a rule of the same name), throws to refuse the
 *    write or returns the rule to store (the clash rule adds `baseForwardingRule`; fingerprints
 *    depend on the final fields). `scopeCheckFor` builds the emulator's.
 *
 * @example
 * ```ts
 * const check: ScopeCheck = { allocate: 'internal', check: (rule, sameAddress) => rule };
 * ```
 */
export interface ScopeCheck {
  readonly allocate?: AddressPoolKind;
  readonly check: (
    rule: ForwardingRuleJson,
    sameAddress: readonly ForwardingRuleJson[],
  ) => ForwardingRuleJson;
}

/**
 * The former name of {@link ScopeCheck}, from when only regions had forwarding rules.
 *
 * @deprecated Use {@link ScopeCheck}: the same check serves regional and global rules.
 * @example
 * ```ts
 * const check: ScopeCheck = { allocate: 'internal', check: (rule) => rule };
 * ```
 */
export type RegionCheck = ScopeCheck;

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
    write: RuleWrite & { check?: ScopeCheck },
  ): Promise<WriteResult>;
  get(parent: ScopeRef, name: string): Promise<ForwardingRuleJson | undefined>;
  /**
   * Replaces a rule only if its stored `fingerprint` is `expectedFingerprint` (else
   * `condition_failed`; `not_found` when there is no rule of that name).
   */
  update(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    write: RuleWrite & { expectedFingerprint: string; check?: ScopeCheck },
  ): Promise<WriteResult>;
  /**
   * Stores a rule as given, without an operation (seed data): replaces a rule of the same name,
   * whose address is given up first. `check` runs as for an insert, while the region's writes
   * are serialised (the seed's address allocation).
   */
  put(parent: ScopeRef, rule: ForwardingRuleJson, check?: ScopeCheck): Promise<void>;
  /** Removes a rule (`not_found` when there is none). */
  delete(parent: ScopeRef, name: string, write: RuleWrite): Promise<WriteResult>;
  /** One page of a region's rules: filter, orderBy and page token as AIP-160/158 define them. */
  list(parent: ScopeRef, request: StoreListRequest): Promise<ListPage<ForwardingRuleJson>>;
  /** One page of every region of a project, keyed (and by default ordered) by selfLink. */
  listAggregated(project: string, request: StoreListRequest): Promise<ListPage<ForwardingRuleJson>>;
  /** Every rule, for the control plane. */
  all(): Promise<(ScopeRef & { rule: ForwardingRuleJson })[]>;
}
