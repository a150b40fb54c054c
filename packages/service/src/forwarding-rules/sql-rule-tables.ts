import { type SqlTable, sqlTable } from '@listkit/query/sql';
import type { SqlBatchStatement } from '../db/sql-database.js';
import { aggregatedForwardingRuleSchema, forwardingRuleSchema } from './forwarding-rule-schema.js';

/** Forwarding rules of every region: one row per rule, scoped by `parent` (and `project`). */
export const rulesTable: SqlTable = sqlTable(forwardingRuleSchema, {
  table: 'forwarding_rules',
  required: ['creationTimestamp'],
});

/** The same table read for the aggregated list: keyed by selfLink across a project's regions. */
export const aggregatedRulesTable: SqlTable = sqlTable(aggregatedForwardingRuleSchema, {
  table: 'forwarding_rules',
  required: ['creationTimestamp'],
});

/** A rule's columns as the store writes them: the table's, then its address's (`addressColumns`). */
export const RULE_COLUMNS: readonly string[] = [
  ...rulesTable.insertColumns,
  'address_key',
  'pool_kind',
  'pool_index',
];

/**
 * The clash rule's rivals: the region's other rules at an address (canonical form, as
 * `clashAddressOf` gives it), read by the address index, each as its JSON text (`resource`).
 *
 * @example
 * ```ts
 * const { text, params } = rulesAtAddress('projects/p/regions/r', '10.0.0.1', 'web');
 * ```
 */
export function rulesAtAddress(parent: string, address: string, except: string): SqlBatchStatement {
  return {
    text: `SELECT ${rulesTable.document}::text AS resource FROM forwarding_rules
WHERE parent = $1 AND address_key = $2 AND "name" <> $3`,
    params: [parent, address, except],
  };
}
