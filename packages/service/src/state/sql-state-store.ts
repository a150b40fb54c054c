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
export function sqlStateStore({ tx }: SqlStoreContext): EmulatorStateStore {
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
      tx(async (session) => {
        await session.query(
          `INSERT INTO emulator_settings (key, value) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [key, JSON.stringify(value)],
        );
      }),
  };
}
