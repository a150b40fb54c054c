import type { Collection, ListPage, PageTokenCodec } from '@listkit/query';
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
import { ScopeAddresses } from './addresses/scope-addresses.js';
import { clashAddressOf } from './create/clash-rule.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { aggregatedRuleCollection, scopeRuleCollection } from './forwarding-rule-collection.js';
import type {
  ForwardingRuleStore,
  RuleWrite,
  ScopeCheck,
  WriteResult,
} from './forwarding-rule-store.js';

const copy = <T>(value: T): T => structuredClone(value);

/** `map.get(key)`, created by `create` the first time. */
function entryOf<T>(map: Map<string, T>, key: string, create: () => T): T {
  let entry = map.get(key);
  if (entry === undefined) {
    entry = create();
    map.set(key, entry);
  }
  return entry;
}

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
  private readonly scopes = new Map<string, Collection<ForwardingRuleJson>>();
  private readonly addresses = new Map<string, ScopeAddresses>();
  private readonly projects = new Map<string, Collection<ForwardingRuleJson>>();

  constructor(
    private readonly pageTokens: PageTokenCodec,
    private readonly operations: MemoryOperationStore,
  ) {}

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
    const rule = this.scopes.get(scopeParent(parent))?.get(name);
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
    const rule = this.scopes.get(scopeParent(parent))?.get(name);
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
    return [...this.scopes].flatMap(([parent, collection]) =>
      collection.values().map((rule) => ({ ...scopeRefOf(parent), rule: copy(rule) })),
    );
  }

  /**
   * Replaces every rule by these (a restore), synchronously: no request sees a part of them.
   * The addresses they hold are taken again from them. The rules are kept as given, not
   * copied: the store never changes a rule it holds (it copies what it hands out), and the
   * caller gives frozen ones (a snapshot's), so many restores share them.
   */
  load(entries: readonly (ScopeRef & { rule: ForwardingRuleJson })[]): void {
    this.clear();
    for (const { rule, ...parent } of entries) this.save(parent, rule, true);
  }

  /** Forgets every rule (the store's reset). */
  clear(): void {
    for (const map of [this.scopes, this.addresses, this.projects]) map.clear();
  }

  private rulesIn(parent: ScopeRef) {
    return entryOf(this.scopes, scopeParent(parent), () => scopeRuleCollection(this.pageTokens));
  }

  private aggregate(project: string) {
    return entryOf(this.projects, project, () => aggregatedRuleCollection(this.pageTokens));
  }

  private addressesIn(parent: ScopeRef) {
    return entryOf(this.addresses, scopeParent(parent), () => new ScopeAddresses());
  }

  private replay(parent: ScopeRef, requestId: string | undefined): WriteResult | undefined {
    const operation = this.operations.replay(parent, requestId);
    return operation ? { operation, replayed: true } : undefined;
  }

  private written(parent: ScopeRef, rule: ForwardingRuleJson, write: RuleWrite): WriteResult {
    const operation = this.operations.record(parent, write.operation(rule), 1);
    return { operation, replayed: false, rule: copy(rule) };
  }

  private save(parent: ScopeRef, rule: ForwardingRuleJson, shared = false): void {
    const stored = shared ? rule : copy(rule);
    const region = this.rulesIn(parent);
    const replaced = region.get(rule.name);
    if (replaced) this.addressesIn(parent).remove(replaced);
    this.addressesIn(parent).add(stored);
    region.put(stored);
    this.aggregate(parent.project).put(stored);
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
