import type { Collection, PageTokenCodec } from '@listkit/query';
import { type ScopeRef, scopeParent } from '../names/resource-names.js';
import { ScopeAddresses } from './addresses/scope-addresses.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { aggregatedRuleCollection, scopeRuleCollection } from './forwarding-rule-collection.js';

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
 * What the memory store keeps of its rules: a `Collection` per scope (region or global) and per
 * project (the aggregated list), and each scope's addresses. Built once from a snapshot's rules
 * ({@link MemoryRuleTables.of}: each rule checked against the schema and indexed) and then
 * {@link MemoryRuleTables.copy copied} by every restore, which costs a copy of the key maps, not
 * a check and an index insert per rule.
 *
 * @example
 * ```ts
 * const pristine = MemoryRuleTables.of(pageTokens, image.rules); // throws on a bad rule
 * const tables = pristine.copy(); // the store writes to this one
 * ```
 */
export class MemoryRuleTables {
  readonly scopes = new Map<string, Collection<ForwardingRuleJson>>();
  readonly addresses = new Map<string, ScopeAddresses>();
  readonly projects = new Map<string, Collection<ForwardingRuleJson>>();

  constructor(private readonly pageTokens: PageTokenCodec) {}

  /**
   * Tables holding these rules, as given (not copied: the store never changes a rule it holds,
   * and a snapshot's are frozen). Throws (a `ListkitError` naming the field) when a rule does not
   * fit the schema; nothing else has changed then. Each collection's default ordering is built
   * here, once, so a restored store's first list does not build it again.
   */
  static of(
    pageTokens: PageTokenCodec,
    entries: readonly (ScopeRef & { rule: ForwardingRuleJson })[],
  ): MemoryRuleTables {
    const tables = new MemoryRuleTables(pageTokens);
    for (const { rule, ...parent } of entries) tables.save(parent, rule);
    for (const collection of [...tables.scopes.values(), ...tables.projects.values()]) {
      collection.values();
    }
    return tables;
  }

  /** Independent tables of the same rules (which are shared: none is ever changed in place). */
  copy(): MemoryRuleTables {
    const copy = new MemoryRuleTables(this.pageTokens);
    for (const [key, collection] of this.scopes) copy.scopes.set(key, collection.copy());
    for (const [key, collection] of this.projects) copy.projects.set(key, collection.copy());
    for (const [key, addresses] of this.addresses) copy.addresses.set(key, addresses.copy());
    return copy;
  }

  rulesIn(parent: ScopeRef): Collection<ForwardingRuleJson> {
    return entryOf(this.scopes, scopeParent(parent), () => scopeRuleCollection(this.pageTokens));
  }

  aggregate(project: string): Collection<ForwardingRuleJson> {
    return entryOf(this.projects, project, () => aggregatedRuleCollection(this.pageTokens));
  }

  addressesIn(parent: ScopeRef): ScopeAddresses {
    return entryOf(this.addresses, scopeParent(parent), () => new ScopeAddresses());
  }

  /** Stores a rule as given (replacing the one of its name), with its address. */
  save(parent: ScopeRef, rule: ForwardingRuleJson): void {
    const region = this.rulesIn(parent);
    const replaced = region.get(rule.name);
    region.put(rule); // first: it refuses a rule that does not fit the schema
    const addresses = this.addressesIn(parent);
    if (replaced) addresses.remove(replaced);
    addresses.add(rule);
    this.aggregate(parent.project).put(rule);
  }
}
