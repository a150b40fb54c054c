import type { ResourceSchema } from '../schema/field-type.js';
import { documentTable } from './document-table.js';
import { ownTable } from './own-table.js';
import type { SqlTable, SqlTableOptions } from './table-types.js';

export type {
  SqlColumn,
  SqlColumnSpec,
  SqlColumnType,
  SqlInexactColumn,
  SqlTable,
  SqlTableOptions,
} from './table-types.js';

/**
 * Lays out a resource schema as a table: the resource as `jsonb` (or `json`, which pages read
 * without conversion: {@link SqlTableOptions.documentType}), plus one typed column per
 * field reachable through messages (strings as `text COLLATE "C"`, int64 as `bigint`,
 * timestamps and durations as `numeric` nanoseconds, enums as their declared index, maps and
 * repeated fields as `jsonb`).
 *
 * @example
 * ```ts
 * const rules = sqlTable(forwardingRuleSchema, { table: 'forwarding_rules', required: ['creationTimestamp'] });
 * await db.exec(rules.createTable());
 * await db.query(
 *   `INSERT INTO forwarding_rules (${rules.insertColumns.join(', ')})
 *    VALUES (${rules.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
 *   rules.row(rule),
 * );
 * ```
 */
export function sqlTable(schema: ResourceSchema, options: SqlTableOptions): SqlTable {
  return options.document === false ? ownTable(schema, options) : documentTable(schema, options);
}
