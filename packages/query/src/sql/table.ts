import type { ResourceSchema } from '../schema/field-type.js';
import { sqlDialect } from './dialects.js';
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
export function sqlTable<T = unknown>(
  schema: ResourceSchema<T>,
  options: SqlTableOptions,
): SqlTable<T> {
  const dialect = sqlDialect(options.dialect);
  if (options.document !== false) return documentTable(schema, options, dialect);
  if (!dialect.capabilities.ownTables) {
    throw new TypeError(
      `tables of your own (document: false) are not supported in ${dialect.name} yet: use listkit's layout (sqlTable without document: false)`,
    );
  }
  return ownTable(schema, options, dialect);
}
