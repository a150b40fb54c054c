import { Refusal } from '../core/refusal.js';
import type { SqlDatabase, SqlSession } from './sql-database.js';

// The generic part of migrations: which steps ran, under one lock, in one transaction. The
// steps themselves (every resource's tables) are store/migrations.ts's.

/**
 * One step of a schema; applied once, in version order, and recorded in `listkit_migrations`.
 *
 * @example
 * ```ts
 * const step: Migration = { version: 3, description: 'an index', statements: ['CREATE INDEX …'] };
 * ```
 */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly statements: readonly string[];
  /** Fills what the statements added for rows already there, computed in this process. */
  readonly backfill?: (tx: SqlSession) => Promise<void>;
}

// An arbitrary constant: the advisory lock every opener takes while it migrates, so that two
// processes starting at once apply each step once.
const MIGRATION_LOCK = '7340452615123481';

/**
 * Brings the database to the newest of `migrations`: in one transaction under an advisory lock,
 * applies the steps not yet recorded in `listkit_migrations`, in version order. Idempotent;
 * refuses (`schema_too_new`) a database that records a newer version than it knows.
 *
 * @example
 * ```ts
 * await runMigrations(db, MIGRATIONS); // the versions it applied
 * ```
 */
export async function runMigrations(
  db: SqlDatabase,
  migrations: readonly Migration[],
): Promise<number[]> {
  const known = Math.max(0, ...migrations.map((m) => m.version));
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS listkit_migrations (
  version integer PRIMARY KEY,
  description text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`);
    const applied = new Set(await appliedVersions(tx));
    const newest = Math.max(0, ...applied);
    if (newest > known) {
      throw new Refusal(
        'schema_too_new',
        `the database has schema version ${newest}; this listkit knows up to ${known}: upgrade listkit`,
      );
    }
    const ran: number[] = [];
    for (const migration of ordered) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await migration.backfill?.(tx);
      await tx.query('INSERT INTO listkit_migrations (version, description) VALUES ($1, $2)', [
        migration.version,
        migration.description,
      ]);
      ran.push(migration.version);
    }
    return ran;
  });
}

async function appliedVersions(tx: SqlSession): Promise<number[]> {
  const rows = await tx.query<{ version: number }>('SELECT version FROM listkit_migrations');
  return rows.map((r) => Number(r.version));
}
