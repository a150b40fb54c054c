import type { SqlRunner } from '../../list-from-sql.js';
import type { SqlStatement } from '../../sql-statement.js';

/**
 * What {@link sqliteRunner} needs of a better-sqlite3 `Database` (12.x): `prepare` and
 * `transaction`. The library imports no driver; pass yours.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db: SqliteDatabase = new Database('rules.db');
 * ```
 */
export interface SqliteDatabase {
  prepare(text: string): {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): unknown;
  };
  transaction(
    fn: (statements: readonly SqlStatement[]) => Record<string, unknown>[],
  ): (statements: readonly SqlStatement[]) => Record<string, unknown>[];
}

/** Prepared statements kept per connection: a page's statement text repeats across pages. */
const MAX_PREPARED = 256;

/**
 * A {@link SqlRunner} over a better-sqlite3 connection: the rows of the last statement, all of a
 * page's statements read from one snapshot. Several statements run in one transaction; a page of
 * one statement (every page listkit plans for SQLite) runs alone, as SQLite reads a statement in
 * one snapshot anyway and BEGIN and COMMIT cost a fifth of a page's statement. Prepared
 * statements are reused by text (at most 256, the oldest dropped first).
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const db = new Database('rules.db');
 * const table = sqlTable(schema, { table: 'rules', dialect: 'sqlite' });
 * const page = await listFromSql(request, { table, pageTokens, run: sqliteRunner(db) });
 * ```
 */
export function sqliteRunner(db: SqliteDatabase): SqlRunner {
  const prepared = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
  const statement = (text: string) => {
    let s = prepared.get(text);
    if (s) {
      prepared.delete(text);
    } else {
      s = db.prepare(text);
      if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
    }
    prepared.set(text, s);
    return s;
  };
  const runAll = (statements: readonly SqlStatement[]) => {
    let rows: unknown[] = [];
    for (const { text, params } of statements) {
      const s = statement(text);
      if (s.reader) rows = s.all(...params);
      else s.run(...params);
    }
    return rows as Record<string, unknown>[];
  };
  const inTransaction = db.transaction(runAll);
  return async (statements) =>
    statements.length === 1 ? runAll(statements) : inTransaction(statements);
}
