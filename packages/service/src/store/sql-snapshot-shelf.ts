import type { SqlStoreContext } from '../db/sql-store-context.js';
import { overLimits, type SnapshotInfo, type SnapshotShelf } from './snapshot-shelf.js';
import { keepSnapshotRows } from './sql-store-image.js';

type InfoRow = { name: string; taken_at: string; bytes: string };
const infoOf = (row: InfoRow): SnapshotInfo => ({
  name: row.name,
  takenAt: row.taken_at,
  bytes: Number(row.bytes),
});

/**
 * Snapshots kept in the database (`listkit_snapshots`, and their rows in a copy of each state
 * table, which a restore copies back): every process sharing it lists and restores the same
 * ones. Puts are serialised by a table lock, so two processes cannot both pass the limits with
 * the last free place.
 *
 * @example
 * ```ts
 * const shelf = sqlSnapshotShelf(sql);
 * ```
 */
export function sqlSnapshotShelf({ tx, writeTx }: SqlStoreContext): SnapshotShelf {
  return {
    put: (info, text, image, limits) =>
      writeTx([], async (session) => {
        await session.query('LOCK TABLE listkit_snapshots IN SHARE ROW EXCLUSIVE MODE');
        const [kept] = await session.query<{ count: string; bytes: string }>(
          'SELECT count(*)::text AS count, coalesce(sum(bytes), 0)::text AS bytes FROM listkit_snapshots WHERE name <> $1',
          [info.name],
        );
        const refusal = overLimits(
          info,
          { count: Number(kept?.count ?? 0), bytes: Number(kept?.bytes ?? 0) },
          limits,
        );
        if (refusal) throw refusal;
        await session.query(
          `INSERT INTO listkit_snapshots (name, taken_at, bytes, image) VALUES ($1, $2, $3, $4)
ON CONFLICT (name) DO UPDATE SET taken_at = EXCLUDED.taken_at, bytes = EXCLUDED.bytes, image = EXCLUDED.image`,
          [info.name, info.takenAt, String(info.bytes), text],
        );
        await keepSnapshotRows(session, info.name, image);
      }),
    get: (name) =>
      tx(async (session) => {
        const [row] = await session.query<InfoRow & { image: string }>(
          'SELECT name, taken_at, bytes::text AS bytes, image FROM listkit_snapshots WHERE name = $1',
          [name],
        );
        return row ? { info: infoOf(row), text: row.image } : undefined;
      }),
    info: (name) =>
      tx(async (session) => {
        const [row] = await session.query<InfoRow>(
          'SELECT name, taken_at, bytes::text AS bytes FROM listkit_snapshots WHERE name = $1',
          [name],
        );
        return row ? infoOf(row) : undefined;
      }),
    list: () =>
      tx(async (session) =>
        (
          await session.query<InfoRow>(
            'SELECT name, taken_at, bytes::text AS bytes FROM listkit_snapshots ORDER BY name',
          )
        ).map(infoOf),
      ),
    delete: (name) =>
      writeTx([], async (session) => {
        const rows = await session.query(
          'DELETE FROM listkit_snapshots WHERE name = $1 RETURNING 1 AS ok',
          [name],
        );
        return rows.length > 0;
      }),
  };
}
