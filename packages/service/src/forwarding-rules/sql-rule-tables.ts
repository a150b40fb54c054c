import { type SqlTable, sqlTable } from '@listkit/query/sql';
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
