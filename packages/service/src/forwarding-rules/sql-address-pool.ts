import type { SqlSession } from '../db/sql-database.js';
import {
  ADDRESS_POOL_SIZES,
  type AddressPoolKind,
  addressAt,
  poolExhausted,
} from './address-pool.js';

// How many positions one probe statement looks at past the cursor; it grows while every
// position probed is in use, so a long run of taken addresses costs few round trips.
const FIRST_PROBE = 64;
const LARGEST_PROBE = 65_536;

/**
 * The SQL store's free-address search, the same as the in-memory `FreeAddresses` over tables:
 * `address_pool_cursors` holds each region and pool's cursor (every free position below it is
 * in `address_pool_freed`), and the rules' `(parent, pool_kind, pool_index)` index answers
 * whether a position is in use. Returns the pool's lowest address no rule of the region uses
 * (403 `quotaExceeded` when none), reading a few index entries, not the region's rows. Call
 * under the region's transaction lock.
 *
 * @example
 * ```ts
 * rule.IPAddress = await takeFreeAddress(session, 'projects/p/regions/r', 'internal', 'r');
 * ```
 */
export async function takeFreeAddress(
  session: SqlSession,
  parent: string,
  kind: AddressPoolKind,
  region: string | undefined,
): Promise<string> {
  for (;;) {
    // The lowest released position, dropped from the queue; taken again meanwhile: the next one.
    const [freed] = await session.query<{ pool_index: number; in_use: boolean }>(
      `DELETE FROM address_pool_freed WHERE (parent, pool_kind, pool_index) = (
  SELECT parent, pool_kind, pool_index FROM address_pool_freed
  WHERE parent = $1 AND pool_kind = $2 ORDER BY pool_index LIMIT 1
) RETURNING pool_index, EXISTS (
  SELECT 1 FROM forwarding_rules r
  WHERE r.parent = $1 AND r.pool_kind = $2 AND r.pool_index = address_pool_freed.pool_index
) AS in_use`,
      [parent, kind],
    );
    if (!freed) break;
    if (!freed.in_use) return addressAt(kind, Number(freed.pool_index));
  }
  const [cursor] = await session.query<{ next_index: number }>(
    'SELECT next_index FROM address_pool_cursors WHERE parent = $1 AND pool_kind = $2',
    [parent, kind],
  );
  const size = ADDRESS_POOL_SIZES[kind];
  let from = cursor ? Number(cursor.next_index) : 0;
  let probe = FIRST_PROBE;
  let found: number | undefined;
  while (found === undefined && from < size) {
    const to = Math.min(from + probe, size);
    // The positions in use in [from, to), read off the index in order (no anti-join: its plan
    // depends on statistics, and PGlite never gathers them by itself); the first gap is free.
    const used = await session.query<{ pool_index: number }>(
      `SELECT DISTINCT pool_index FROM forwarding_rules
WHERE parent = $1 AND pool_kind = $2 AND pool_index >= $3 AND pool_index < $4 ORDER BY pool_index`,
      [parent, kind, from, to],
    );
    let next = from;
    for (const row of used) {
      if (Number(row.pool_index) !== next) break;
      next++;
    }
    if (next < to) found = next;
    else from = to;
    probe = Math.min(probe * 4, LARGEST_PROBE);
  }
  await session.query(
    `INSERT INTO address_pool_cursors (parent, pool_kind, next_index) VALUES ($1, $2, $3)
ON CONFLICT (parent, pool_kind) DO UPDATE SET next_index = EXCLUDED.next_index`,
    [parent, kind, found === undefined ? size : found + 1],
  );
  if (found === undefined) throw poolExhausted(kind, region);
  return addressAt(kind, found);
}

/**
 * Tells the free-address search that no rule may use a pool position any more (a rule there
 * was deleted or moved): below the cursor it is queued, above it the probe will find it. A
 * position still used by another rule is dropped when it is reached. Call under the region's
 * transaction lock.
 *
 * @example
 * ```ts
 * await releaseAddress(session, 'projects/p/regions/r', 'internal', 0);
 * ```
 */
export async function releaseAddress(
  session: SqlSession,
  parent: string,
  kind: string,
  index: number,
): Promise<void> {
  await session.query(
    `INSERT INTO address_pool_freed (parent, pool_kind, pool_index)
SELECT parent, pool_kind, $3 FROM address_pool_cursors
WHERE parent = $1 AND pool_kind = $2 AND next_index > $3
ON CONFLICT DO NOTHING`,
    [parent, kind, index],
  );
}
