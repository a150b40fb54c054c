import type { SqlStoreContext } from '../db/sql-store-context.js';
import type { EmulatorStateStore } from './state-store.js';

/**
 * The emulator's settings and request log in PostgreSQL, shared by every process on it.
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
    appendRequest: (entry, capacity) =>
      tx(async (session) => {
        const rows = await session.query<{ seq: string }>(
          'INSERT INTO request_log (entry) VALUES ($1) RETURNING seq::text AS seq',
          [JSON.stringify(entry)],
        );
        await session.query('DELETE FROM request_log WHERE seq <= $1::bigint - $2::bigint', [
          rows[0]!.seq,
          String(Math.max(0, Math.floor(capacity))),
        ]);
      }),
    requests: () =>
      tx(async (session) =>
        (
          await session.query<{ entry: string }>(
            'SELECT entry::text AS entry FROM request_log ORDER BY seq',
          )
        ).map((r) => JSON.parse(r.entry) as Record<string, unknown>),
      ),
  };
}
