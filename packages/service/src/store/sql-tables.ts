import { type SqlColumn, type SqlTable, sqlTable } from '@listkit/query/sql';
import {
  aggregatedForwardingRuleSchema,
  forwardingRuleSchema,
} from '../forwarding-rules/forwarding-rule-schema.js';
import { operationSchema } from '../operations/operation-schema.js';

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

/** Regional operations, scoped by `parent`. */
export const operationsTable: SqlTable = sqlTable(operationSchema, {
  table: 'operations',
  required: ['creationTimestamp', 'status'],
});

/** `name type [COLLATE "C"] [NOT NULL]`, as sqlTable lays the column out. */
export const columnDefinition = (c: SqlColumn) =>
  `${c.name} ${c.sqlType}${c.sqlType === 'text' ? ' COLLATE "C"' : ''}${c.nullable ? '' : ' NOT NULL'}`;

/** `$from, $from+1, …` for `count` values. */
export const placeholders = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
