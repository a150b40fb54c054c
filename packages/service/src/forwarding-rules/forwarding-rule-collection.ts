import { Collection, type PageTokenCodec } from '@listkit/query';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { aggregatedForwardingRuleSchema, forwardingRuleSchema } from './forwarding-rule-schema.js';

/**
 * The fields every forwarding-rule collection indexes for filters: a filter with an equality on
 * one of them (`labels.env = prod`, `IPProtocol = UDP`, `IPAddress = "10.0.0.7"`) may seek the
 * index instead of scanning the ordering, when that visits fewer rules (`Collection.plan()`).
 * These are the fields users filter on by value (labels, address, protocol, scheme, the network
 * and what the rule points at); each costs one counter update per write, plus one tree insert per
 * ordering a filtered page has used. Measured in BENCHMARKS.md (HTTP section).
 */
export const FORWARDING_RULE_INDEXES: readonly string[] = [
  'labels',
  'IPAddress',
  'IPProtocol',
  'loadBalancingScheme',
  'network',
  'subnetwork',
  'target',
  'backendService',
];

/**
 * The collection of one scope's forwarding rules (a region's, or a project's global ones): the
 * schema, keyed by name, with the declared {@link FORWARDING_RULE_INDEXES}. The one place such a
 * collection is built, so the route and every in-memory store list the same way.
 *
 * @example
 * ```ts
 * const rules = scopeRuleCollection(await PageTokenCodec.create());
 * rules.put({ name: 'web', labels: { env: 'prod' } });
 * console.log(String(rules.plan({ filter: 'labels.env = prod', pageSize: 500 })));
 * ```
 */
export function scopeRuleCollection(pageTokens: PageTokenCodec): Collection<ForwardingRuleJson> {
  return new Collection<ForwardingRuleJson>(forwardingRuleSchema, {
    pageTokens,
    indexes: FORWARDING_RULE_INDEXES,
  });
}

/**
 * The collection of every forwarding rule of a project (the aggregated list): keyed by
 * `selfLink`, since names repeat across regions, with the same declared indexes.
 *
 * @example
 * ```ts
 * const all = aggregatedRuleCollection(await PageTokenCodec.create());
 * all.put({ name: 'web', selfLink: 'https://…/regions/us-central1/forwardingRules/web' });
 * ```
 */
export function aggregatedRuleCollection(
  pageTokens: PageTokenCodec,
): Collection<ForwardingRuleJson> {
  return new Collection<ForwardingRuleJson>(aggregatedForwardingRuleSchema, {
    pageTokens,
    indexes: FORWARDING_RULE_INDEXES,
  });
}

/**
 * Each stored rule's list entry: a comma, then its JSON, as UTF-8 bytes (one byte more than the
 * JSON, so a list page copies one part per rule and no separate comma). Stored rules are never
 * mutated (a change stores a new object), so the bytes stay valid for as long as the object
 * lives; the map holds them weakly, so they go with the rule (bounded by the rules stored).
 */
const storedEntries = new WeakMap<ForwardingRuleJson, Uint8Array>();

const listEntryOf = (json: string): Uint8Array => Buffer.from(`,${json}`);

/**
 * A stored forwarding rule's list entry, a comma followed by its JSON as UTF-8 bytes, serialised
 * once per stored object: a list page of 500 rules is assembled from these (`listPageBytes`)
 * instead of serialising 500 objects. Only for objects nobody mutates after storing (the
 * collections' items); a fresh object is serialised and kept until it is collected.
 *
 * @example
 * ```ts
 * const page = await rules.list({ pageSize: 500 });
 * const parts = page.items.map(ruleListEntryBytes); // [',{"name":"web-1",…}', …]
 * ```
 */
export function ruleListEntryBytes(rule: ForwardingRuleJson): Uint8Array {
  let entry = storedEntries.get(rule);
  if (entry === undefined) {
    entry = listEntryOf(JSON.stringify(rule));
    storedEntries.set(rule, entry);
  }
  return entry;
}

/**
 * A forwarding rule read from a store's JSON text, with the text kept as its
 * {@link ruleListEntryBytes}: a page of rules read from SQL is written from the text the database
 * returned instead of serialising each parsed rule again (about 1.1 ms per page of 500). The
 * text is PostgreSQL's `jsonb` output, whose key order the parsed rule has too.
 *
 * @example
 * ```ts
 * const rule = parseStoredRule('{"name": "web-1"}');
 * ruleListEntryBytes(rule); // ',' and the bytes of the text above, not re-serialised
 * ```
 */
export function parseStoredRule(json: string): ForwardingRuleJson {
  const rule = JSON.parse(json) as ForwardingRuleJson;
  storedEntries.set(rule, listEntryOf(json));
  return rule;
}
