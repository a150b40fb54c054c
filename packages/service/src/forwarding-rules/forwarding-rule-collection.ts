import { Collection, type PageTokenCodec } from '@listkit/query';
import { compactListEntry, indentedListEntry } from '../core/list-entry.js';
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
 * Each stored rule's list entries, compact and indented (`core/list-entry.ts`), each made the
 * first time a page asks for that form. Stored rules are never mutated (a change stores a new
 * object), so the bytes stay valid for as long as the object lives; the maps hold them weakly,
 * so they go with the rule (bounded by the rules stored).
 */
const compactEntries = new WeakMap<ForwardingRuleJson, Uint8Array>();
const indentedEntries = new WeakMap<ForwardingRuleJson, Uint8Array>();
/** The JSON text a rule was read from ({@link parseStoredRule}): its compact entry as stored. */
const storedTexts = new WeakMap<ForwardingRuleJson, string>();

/**
 * A stored forwarding rule's entry in a compact list page (`prettyPrint=false`): a comma
 * followed by its JSON as UTF-8 bytes, serialised once per stored object: a list page of 500
 * rules is assembled from these (`listPageBytes`) instead of serialising 500 objects. Only for
 * objects nobody mutates after storing (the collections' items); a fresh object is serialised
 * and kept until it is collected.
 *
 * @example
 * ```ts
 * const page = await rules.list({ pageSize: 500 });
 * const parts = page.items.map(ruleListEntryBytes); // [',{"name":"web-1",…}', …]
 * ```
 */
export function ruleListEntryBytes(rule: ForwardingRuleJson): Uint8Array {
  let entry = compactEntries.get(rule);
  if (entry === undefined) {
    entry = compactListEntry(storedTexts.get(rule) ?? JSON.stringify(rule));
    compactEntries.set(rule, entry);
  }
  return entry;
}

/**
 * A stored forwarding rule's entry in an indented list page (`prettyPrint`, Google's default):
 * the rule as `JSON.stringify(page, null, 2)` writes it among the page's items, made once per
 * stored object as {@link ruleListEntryBytes} is.
 *
 * @example
 * ```ts
 * const parts = page.items.map(ruleIndentedListEntryBytes); // [',\n    {\n      "name": …', …]
 * ```
 */
export function ruleIndentedListEntryBytes(rule: ForwardingRuleJson): Uint8Array {
  let entry = indentedEntries.get(rule);
  if (entry === undefined) {
    entry = indentedListEntry(rule);
    indentedEntries.set(rule, entry);
  }
  return entry;
}

/**
 * A forwarding rule read from a store's JSON text, with the text kept for its
 * {@link ruleListEntryBytes}: a compact page of rules read from SQL is written from the text the
 * database returned instead of serialising each parsed rule again (about 1.1 ms per page of
 * 500). The text is PostgreSQL's `jsonb` output, whose key order the parsed rule has too.
 *
 * @example
 * ```ts
 * const rule = parseStoredRule('{"name": "web-1"}');
 * ruleListEntryBytes(rule); // ',' and the bytes of the text above, not re-serialised
 * ```
 */
export function parseStoredRule(json: string): ForwardingRuleJson {
  const rule = JSON.parse(json) as ForwardingRuleJson;
  storedTexts.set(rule, json);
  return rule;
}
