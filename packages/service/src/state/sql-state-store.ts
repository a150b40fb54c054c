import { insertRows } from '../db/sql-bulk-insert.js';
import type { SqlSession } from '../db/sql-database.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import type { EmulatorStateStore } from './state-store.js';

/**
 * The emulator's settings in PostgreSQL, shared by every process on it.
 *
 * @example
 * ```ts
 * const state = sqlStateStore(sqlStoreContext(db, statistics, { pageTokens }));
 * ```
 */
export function sqlStateStore({ tx, writeTx }: SqlStoreContext): EmulatorStateStore {
  return {
    get: <T>(key: string) =>
      tx(async (session) => {
        const rows = await session.query<{ value: string }>(
          'SELECT value::text AS value FROM emulator_settings WHERE key = $1',
          [key],
        );
        return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
      }),
    set: (key, value) =>
      writeTx([], async (session) => {
        await session.query(
          `INSERT INTO emulator_settings (key, value) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [key, JSON.stringify(value)],
        );
      }),
  };
}

/**
 * Every setting by key, read in the caller's transaction (a snapshot's).
 *
 * @example
 * ```ts
 * const settings = await readSettings(session);
 * ```
 */
export async function readSettings(session: SqlSession): Promise<Record<string, unknown>> {
  const rows = await session.query<{ key: string; value: string }>(
    'SELECT key, value::text AS value FROM emulator_settings ORDER BY key',
  );
  return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]));
}

/**
 * Writes settings into a table the caller emptied (a restore's), or with `snapshot` among that
 * snapshot's rows.
 *
 * @example
 * ```ts
 * await writeSettings(session, image.settings);
 * ```
 */
export function writeSettings(
  session: SqlSession,
  settings: Readonly<Record<string, unknown>>,
  snapshot?: string,
): Promise<void> {
  return insertRows(
    session,
    'emulator_settings',
    ['key', 'value'],
    Object.entries(settings).map(([key, value]) => [key, JSON.stringify(value)]),
    snapshot,
  );
}
