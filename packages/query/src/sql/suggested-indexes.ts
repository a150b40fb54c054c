import { parseOrderBy } from '../order-by/order-by.js';
import { nullsClause, orderColumns, sortExpression } from './keyset.js';
import type { SqlTable } from './table.js';

/**
 * Options of {@link suggestIndexes}.
 *
 * @example
 * ```ts
 * suggestIndexes(table, { orderings: ['', 'name'], trigram: ['description'] });
 * ```
 */
export interface SuggestIndexesOptions {
  /** The orderings to serve, canonical (`''` is the default); defaults to the schema's `orderings`. */
  orderings?: readonly string[];
  /**
   * Field paths of string columns to give a pg_trgm GIN index (substring `:` and `*x*`
   * wildcards, and regex literal fragments); `true` for every searchable field. Needs the
   * `pg_trgm` extension (Debian: postgresql-contrib).
   */
  trigram?: boolean | readonly string[];
}

const indexName = (table: SqlTable, what: string) =>
  `${table.name}_${what}`
    .replace(/["`]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 63);

/** MySQL has no `CREATE INDEX IF NOT EXISTS` (MariaDB has): the one text both run. */
const createIndex = (table: SqlTable) =>
  table.dialect.name === 'mysql' ? 'CREATE INDEX' : 'CREATE INDEX IF NOT EXISTS';

/**
 * The DDL a user can apply so that every allowed ordering is a keyset seek and label filters use
 * GIN: a btree per ordering (its terms in the query's exact form — `COLLATE "C"`, direction,
 * NULLS — then the key), a GIN index per map and list column (`?` and `@>`), and optional
 * trigram indexes.
 *
 * @example
 * ```ts
 * for (const ddl of suggestIndexes(table, { orderings: ['', 'name', 'creationTimestamp desc'] })) {
 *   await client.query(ddl);
 * }
 * ```
 */
export function suggestIndexes(table: SqlTable, options: SuggestIndexesOptions = {}): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const ordering of options.orderings ?? table.schema.orderings ?? ['']) {
    const order = parseOrderBy(ordering, table.schema, { allowed: [ordering] });
    const columns = orderColumns(table, order);
    // A PostgreSQL enum's cast to text is not immutable: no index on the CASE that orders it.
    if (columns.some(({ column }) => column.storage === 'enum')) continue;
    // A table of your own orders by expressions (COALESCE, casts, CASE): an expression index,
    // its names unqualified, where the engine indexes expressions; none where it does not.
    const indexed = columns.map(({ column }) => {
      const expr = sortExpression(column).replaceAll(`${table.name}.`, '');
      return column.storage !== undefined && expr !== column.name ? `(${expr})` : expr;
    });
    if (
      !table.dialect.capabilities.expressionIndexes &&
      indexed.some((expr, i) => expr !== columns[i]!.column.name)
    ) {
      continue;
    }
    const terms = columns.map(({ column, descending }, i) => {
      const nulls = nullsClause(table, column, descending);
      return `${indexed[i]}${descending ? ' DESC' : ''}${nulls}`;
    });
    const signature = terms.join(', ');
    if (seen.has(signature)) continue;
    seen.add(signature);
    const name = indexName(
      table,
      `order_${columns.map(({ column, descending }) => `${column.name}${descending ? '_desc' : ''}`).join('_')}`,
    );
    out.push(`${createIndex(table)} ${name} ON ${table.name} (${signature})`);
  }
  // GIN answers `?` and `@>`; engines without containment walk the JSON (no index helps).
  for (const column of table.dialect.capabilities.jsonContainment ? table.columns : []) {
    if (column.sqlType === 'jsonb') {
      out.push(
        `CREATE INDEX IF NOT EXISTS ${indexName(table, `gin_${column.name}`)} ON ${table.name} USING gin (${column.name})`,
      );
    }
  }
  const trigram = options.trigram;
  if (trigram && table.dialect.name !== 'postgres') {
    throw new TypeError(`trigram indexes are PostgreSQL's (pg_trgm), not ${table.dialect.name}'s`);
  }
  if (trigram) {
    const paths =
      trigram === true
        ? table.columns.filter((c) => c.type.searchable && c.sqlType === 'text').map((c) => c.path)
        : trigram;
    if (paths.length > 0) out.push('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    for (const path of paths) {
      const column = table.column(path);
      if (column?.sqlType !== 'text') throw new TypeError(`"${path}" is not a string column`);
      out.push(
        `CREATE INDEX IF NOT EXISTS ${indexName(table, `trgm_${column.name}`)} ON ${table.name} USING gin (${column.name} gin_trgm_ops)`,
      );
    }
  }
  return out;
}
