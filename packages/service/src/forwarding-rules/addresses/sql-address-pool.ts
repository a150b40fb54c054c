import type {
  SqlBatchSession,
  SqlBatchStatement,
  SqlRows,
  SqlSession,
  SqlValue,
} from '../../db/sql-database.js';
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
// How many released positions the batched reads look at: more than this many in a row taken
// again by rules with given addresses is rare, and then the search goes on statement by statement.
const FREED_READ = 16;

/**
 * An address chosen by {@link chooseFreeAddress}, and what the write that uses it must record:
 * drop the released positions up to `dropFreedTo` and move the cursor to `cursor` (see
 * {@link allocationWrites}). `recorded` when the search had to write them itself.
 */
export interface AddressChoice {
  readonly address: string;
  readonly kind: AddressPoolKind;
  readonly index?: number;
  readonly dropFreedTo?: number;
  readonly cursor?: number;
  readonly recorded: boolean;
}

/**
 * The reads {@link chooseFreeAddress} decides from, to send with the region's lock in one round
 * trip: the lowest released positions (each with whether a rule uses it again), the cursor, and
 * the positions in use in the first probe past the cursor. They write nothing: a write that
 * turns out a 409, a replay or a clash leaves the pool as it was.
 *
 * @example
 * ```ts
 * const [freed, cursor, used] = await tx.send(addressReads(parent, 'internal'));
 * ```
 */
export function addressReads(parent: string, kind: AddressPoolKind): SqlBatchStatement[] {
  const cursor =
    '(SELECT coalesce(max(next_index), 0) FROM address_pool_cursors WHERE parent = $1 AND pool_kind = $2)';
  return [
    {
      // The EXISTS stays a subplan per row (in the select list, not the WHERE): no anti-join
      // whose plan would depend on statistics PGlite may not have.
      text: `SELECT pool_index, EXISTS (
  SELECT 1 FROM forwarding_rules r
  WHERE r.parent = $1 AND r.pool_kind = $2 AND r.pool_index = f.pool_index
) AS in_use FROM address_pool_freed f WHERE parent = $1 AND pool_kind = $2 ORDER BY pool_index LIMIT ${FREED_READ}`,
      params: [parent, kind],
    },
    { text: `SELECT ${cursor} AS next_index`, params: [parent, kind] },
    {
      text: `SELECT DISTINCT pool_index FROM forwarding_rules
WHERE parent = $1 AND pool_kind = $2 AND pool_index >= ${cursor} AND pool_index < ${cursor} + ${FIRST_PROBE}
ORDER BY pool_index`,
      params: [parent, kind],
    },
  ];
}

/**
 * The pool's lowest address no rule of the region uses, decided from {@link addressReads}'
 * rows, as {@link takeFreeAddress} finds it; when those rows cannot tell (every released position
 * read is used again, or the first probe is full) the search goes on in `tx` statement by
 * statement and records its writes itself. 403 `quotaExceeded` when the pool is exhausted.
 * Call under the region's transaction lock, in the transaction that read the rows.
 *
 * @example
 * ```ts
 * const choice = await chooseFreeAddress(tx, parent, 'internal', 'us-central1', rows);
 * ```
 */
export async function chooseFreeAddress(
  tx: SqlBatchSession,
  parent: string,
  kind: AddressPoolKind,
  region: string | undefined,
  [freed, cursorRows, used]: SqlRows[],
): Promise<AddressChoice> {
  const released = (freed ?? []).map((r) => ({ index: Number(r.pool_index), inUse: !!r.in_use }));
  const free = released.find((r) => !r.inUse);
  if (free) {
    const { index } = free;
    return { address: addressAt(kind, index), kind, index, dropFreedTo: index, recorded: false };
  }
  const size = ADDRESS_POOL_SIZES[kind];
  const from = Number(cursorRows?.[0]?.next_index ?? 0);
  const to = Math.min(from + FIRST_PROBE, size);
  const next = firstGap(used ?? [], from);
  if (released.length < FREED_READ && next < to) {
    const dropFreedTo = released.at(-1)?.index;
    return {
      address: addressAt(kind, next),
      kind,
      index: next,
      ...(dropFreedTo === undefined ? {} : { dropFreedTo }),
      cursor: next + 1,
      recorded: false,
    };
  }
  if (released.length < FREED_READ && to >= size) throw poolExhausted(kind, region);
  const session: SqlSession = {
    query: async (text, params) =>
      ((await tx.send([{ text, params: params ?? [] }]))[0] ?? []) as never,
  };
  return { address: await takeFreeAddress(session, parent, kind, region), kind, recorded: true };
}

/**
 * The first position from `from` on missing from `used` (positions in use, ascending, from a
 * probe that starts at `from`): one past the probe's end when it has no gap.
 */
function firstGap(used: readonly Record<string, unknown>[], from: number): number {
  let next = from;
  for (const row of used) {
    if (Number(row.pool_index) !== next) break;
    next++;
  }
  return next;
}

/**
 * The data-modifying CTEs that record an address choice, to put in the statement that inserts
 * the rule (the CTE named `rule`, returning a row when the rule went in): they write only when
 * it did. Placeholders from `$from` on; returns the CTE text (leading comma) and its values.
 *
 * @example
 * ```ts
 * const { ctes, params } = allocationWrites(parent, choice, row.length + 1);
 * ```
 */
export function allocationWrites(
  parent: string,
  choice: AddressChoice,
  from: number,
): { ctes: string; params: SqlValue[] } {
  if (choice.recorded) return { ctes: '', params: [] };
  const params: SqlValue[] = [parent, choice.kind];
  const [p, k] = [`$${from}::text`, `$${from + 1}::text`];
  let ctes = '';
  if (choice.dropFreedTo !== undefined) {
    params.push(choice.dropFreedTo);
    ctes += `, dropped AS (
  DELETE FROM address_pool_freed WHERE parent = ${p} AND pool_kind = ${k}
  AND pool_index <= $${from + params.length - 1}::integer AND EXISTS (SELECT 1 FROM rule)
)`;
  }
  if (choice.cursor !== undefined) {
    params.push(choice.cursor);
    ctes += `, moved AS (
  INSERT INTO address_pool_cursors (parent, pool_kind, next_index)
  SELECT ${p}, ${k}, $${from + params.length - 1}::integer FROM rule
  ON CONFLICT (parent, pool_kind) DO UPDATE
  SET next_index = greatest(address_pool_cursors.next_index, EXCLUDED.next_index)
)`;
  }
  return { ctes, params };
}

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
    const next = firstGap(used, from);
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
