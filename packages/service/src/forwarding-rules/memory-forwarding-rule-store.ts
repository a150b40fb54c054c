import type { ListPage, PageTokenCodec } from '@listkit/query';
import { resourceAlreadyExists, resourceNotFound } from '../core/compute-refusals.js';
import { Refusal } from '../core/refusal.js';
import type { StoreListRequest } from '../core/store-list-request.js';
import {
  aggregatedTokenParent,
  type ScopeRef,
  scopedName,
  scopeParent,
  scopeRefOf,
  tokenParent,
} from '../names/resource-names.js';
import type { MemoryOperationStore } from '../operations/memory-operation-store.js';
import { clashAddressOf } from './create/clash-rule.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type {
  ForwardingRuleStore,
  RuleWrite,
  ScopeCheck,
  WriteResult,
} from './forwarding-rule-store.js';
import { MemoryRuleTables } from './memory-rule-tables.js';

const copy = <T>(value: T): T => structuredClone(value);

/**
 * Forwarding rules in this process's memory: a `Collection` per scope (region or global) and per
 * project (the aggregated list), and the scope's addresses for the clash rule and allocation. Every method
 * decides synchronously (no await between a check and its write), so concurrent calls are
 * serialised by the event loop; a write's operation is recorded in the same step.
 *
 * @example
 * ```ts
 * const operations = memoryOperationStore(pageTokens);
 * const rules = new MemoryForwardingRuleStore(pageTokens, operations);
 * await rules.list({ project: 'p', region: 'us-east1' }, { pageSize: 10 });
 * ```
 */
export class MemoryForwardingRuleStore implements ForwardingRuleStore {
  private tables: MemoryRuleTables;

  constructor(
    private readonly pageTokens: PageTokenCodec,
    private readonly operations: MemoryOperationStore,
  ) {
    this.tables = new MemoryRuleTables(pageTokens);
  }

  async insert(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    write: RuleWrite & { check?: ScopeCheck },
  ): Promise<WriteResult> {
    const earlier = this.replay(parent, write.requestId);
    if (earlier) return earlier;
    if (this.rulesIn(parent).get(rule.name)) {
      throw resourceAlreadyExists(scopedName(parent, 'forwardingRules', rule.name));
    }
    const stored = this.checked(parent, rule, write.check);
    this.save(parent, stored);
    return this.written(parent, stored, write);
  }

  async get(parent: ScopeRef, name: string): Promise<ForwardingRuleJson | undefined> {
    const rule = this.tables.scopes.get(scopeParent(parent))?.get(name);
    return rule ? copy(rule) : undefined;
  }

  async update(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    write: RuleWrite & { expectedFingerprint: string; check?: ScopeCheck },
  ): Promise<WriteResult> {
    const earlier = this.replay(parent, write.requestId);
    if (earlier) return earlier;
    const current = this.rulesIn(parent).get(rule.name);
    if (!current) throw resourceNotFound(scopedName(parent, 'forwardingRules', rule.name));
    if (current.fingerprint !== write.expectedFingerprint) {
      throw new Refusal(
        'condition_failed',
        `the fingerprint of ${rule.name} is ${String(current.fingerprint)}, not ${write.expectedFingerprint}`,
      );
    }
    const stored = this.checked(parent, rule, write.check);
    this.save(parent, stored);
    return this.written(parent, stored, write);
  }

  async put(parent: ScopeRef, rule: ForwardingRuleJson, check?: ScopeCheck): Promise<void> {
    const replaced = this.rulesIn(parent).get(rule.name);
    if (replaced) {
      // The version replaced gives up its address first: the new one may take it again.
      this.addressesIn(parent).remove(replaced);
      this.aggregate(parent.project).delete(String(replaced.selfLink));
    }
    this.save(parent, this.checked(parent, rule, check));
  }

  async delete(parent: ScopeRef, name: string, write: RuleWrite): Promise<WriteResult> {
    const earlier = this.replay(parent, write.requestId);
    if (earlier) return earlier;
    const rule = this.tables.scopes.get(scopeParent(parent))?.get(name);
    if (!rule) throw resourceNotFound(scopedName(parent, 'forwardingRules', name));
    this.rulesIn(parent).delete(name);
    this.addressesIn(parent).remove(rule);
    this.aggregate(parent.project).delete(String(rule.selfLink));
    return this.written(parent, rule, write);
  }

  list(parent: ScopeRef, request: StoreListRequest): Promise<ListPage<ForwardingRuleJson>> {
    // Each region's rules are a collection of their own: the region is bound into page tokens
    // (as context: a Collection's `parent` would scope by the rules' names).
    return this.rulesIn(parent).list({
      ...request,
      context: { ...request.context, collection: tokenParent(parent, 'forwardingRules') },
    });
  }

  listAggregated(
    project: string,
    request: StoreListRequest,
  ): Promise<ListPage<ForwardingRuleJson>> {
    return this.aggregate(project).list({
      ...request,
      context: { ...request.context, collection: aggregatedTokenParent(project) },
    });
  }

  async all(): Promise<(ScopeRef & { rule: ForwardingRuleJson })[]> {
    return this.entries();
  }

  /** Every rule with its scope, copied, at this instant (synchronously: a snapshot's read). */
  entries(): (ScopeRef & { rule: ForwardingRuleJson })[] {
    return [...this.tables.scopes].flatMap(([parent, collection]) =>
      collection.values().map((rule) => ({ ...scopeRefOf(parent), rule: copy(rule) })),
    );
  }

  /**
   * Tables of these rules, checked and indexed, apart from the store ({@link adopt} puts a copy
   * in): a restore builds them once per snapshot. Throws when a rule does not fit the schema.
   */
  prepare(entries: readonly (ScopeRef & { rule: ForwardingRuleJson })[]): MemoryRuleTables {
    return MemoryRuleTables.of(this.pageTokens, entries);
  }

  /**
   * Replaces every rule by a copy of these tables' (a restore), synchronously: no request sees
   * a part of them. The tables given stay as they were, for the next restore.
   */
  adopt(tables: MemoryRuleTables): void {
    this.tables = tables.copy();
  }

  /** Forgets every rule (the store's reset). */
  clear(): void {
    this.tables = new MemoryRuleTables(this.pageTokens);
  }

  private rulesIn(parent: ScopeRef) {
    return this.tables.rulesIn(parent);
  }

  private aggregate(project: string) {
    return this.tables.aggregate(project);
  }

  private addressesIn(parent: ScopeRef) {
    return this.tables.addressesIn(parent);
  }

  private replay(parent: ScopeRef, requestId: string | undefined): WriteResult | undefined {
    const operation = this.operations.replay(parent, requestId);
    return operation ? { operation, replayed: true } : undefined;
  }

  private written(parent: ScopeRef, rule: ForwardingRuleJson, write: RuleWrite): WriteResult {
    const operation = this.operations.record(parent, write.operation(rule), 1);
    return { operation, replayed: false, rule: copy(rule) };
  }

  private save(parent: ScopeRef, rule: ForwardingRuleJson): void {
    this.tables.save(parent, copy(rule));
  }

  /**
   * Runs a write's ScopeCheck: the address first, then the check over the rules at it. Callers
   * decide about the name before (a 409 takes no address).
   */
  private checked(
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    check: ScopeCheck | undefined,
  ): ForwardingRuleJson {
    if (!check) return rule;
    const region = this.addressesIn(parent);
    let candidate = rule;
    if (check.allocate && rule.IPAddress === undefined) {
      candidate = { ...rule, IPAddress: region.allocate(check.allocate, parent.region) };
    }
    const address = clashAddressOf(candidate);
    const sameAddress =
      address === undefined ? [] : region.rulesAt(address).filter((r) => r.name !== rule.name);
    return check.check(candidate, sameAddress);
  }
}
