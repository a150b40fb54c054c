import { type Migration, runMigrations } from '../db/migration-runner.js';
import { snapshotTable } from '../db/sql-bulk-insert.js';
import type { SqlDatabase } from '../db/sql-database.js';
import { addressColumns } from '../forwarding-rules/addresses/address-columns.js';
import { aggregatedRulesTable, rulesTable } from '../forwarding-rules/sql-rule-tables.js';
import { operationsTable } from '../operations/sql-operation-table.js';
import { IMAGE_TABLES, keepSnapshotRows } from './sql-store-image.js';
import type { StoreImage } from './store-image.js';

// Whether `i` is the lowest position of pool `k` no rule of region `p` uses: not in use; no
// released position is free again below it; at or past the cursor, every position from the
// cursor up to it in use (below the cursor every free position is a released one). An insert
// that guessed its address writes only when this holds (sql-address-guess.ts). A function, not
// the same condition inline, because PL/pgSQL keeps its statements' plans for the session:
// the six subqueries planned anew on every insert cost 0.26 ms, the call 0.04 ms (issue 26).
const LOWEST_FREE_POSITION = `CREATE OR REPLACE FUNCTION listkit_lowest_free_position(p text, k text, i integer)
RETURNS boolean LANGUAGE plpgsql STABLE AS $body$
DECLARE
  c integer;
BEGIN
  IF EXISTS (SELECT 1 FROM forwarding_rules WHERE parent = p AND pool_kind = k AND pool_index = i) THEN
    RETURN false;
  END IF;
  IF EXISTS (
    SELECT 1 FROM address_pool_freed f
    WHERE f.parent = p AND f.pool_kind = k AND f.pool_index < i AND NOT EXISTS (
      SELECT 1 FROM forwarding_rules r
      WHERE r.parent = p AND r.pool_kind = k AND r.pool_index = f.pool_index
    )
  ) THEN
    RETURN false;
  END IF;
  SELECT coalesce(max(next_index), 0) INTO c FROM address_pool_cursors
  WHERE parent = p AND pool_kind = k;
  RETURN i < c OR (
    SELECT count(DISTINCT pool_index) FROM forwarding_rules
    WHERE parent = p AND pool_kind = k AND pool_index >= c AND pool_index < i
  ) = i - c;
END
$body$`;

/** Each image table's key: a row of a snapshot's copy is found by the snapshot and these. */
const SNAPSHOT_COPY_KEYS: Readonly<Record<string, readonly string[]>> = {
  forwarding_rules: ['parent', '"name"'],
  operations: ['parent', '"name"'],
  orders: ['package_name', 'order_id'],
  emulator_settings: ['"key"'],
};

/** Rows a backfill statement updates at once. */
const BACKFILL_BATCH = 1000;

/**
 * The schema's history. Never edit an applied step: add the next version (ALTER TABLE …) so a
 * database created by an older build moves forward. A step that changes a column of a state
 * table a snapshot keeps (`IMAGE_TABLES`) changes its copy, `listkit_snapshot_<table>`, too: a
 * restore copies the rows back column for column (the contract test compares them).
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'forwarding rules, operations, orders, settings and the request log',
    statements: [
      `CREATE TABLE forwarding_rules (
  parent text COLLATE "C" NOT NULL,
  project text COLLATE "C" NOT NULL,
  ${rulesTable.document} jsonb NOT NULL,
  ${rulesTable.columns.map(rulesTable.columnDefinition).join(',\n  ')},
  PRIMARY KEY (parent, ${rulesTable.column('name')!.name})
)`,
      `CREATE INDEX forwarding_rules_by_creation ON forwarding_rules (parent, ${rulesTable.column('creationTimestamp')!.name} DESC, "name" COLLATE "C")`,
      `CREATE INDEX forwarding_rules_aggregated ON forwarding_rules (project, ${aggregatedRulesTable.column('selfLink')!.name} COLLATE "C")`,
      `CREATE INDEX forwarding_rules_labels ON forwarding_rules USING gin (${rulesTable.column('labels')!.name})`,
      `CREATE TABLE operations (
  parent text COLLATE "C" NOT NULL,
  ${operationsTable.document} jsonb NOT NULL,
  ${operationsTable.columns.map(operationsTable.columnDefinition).join(',\n  ')},
  meta jsonb NOT NULL,
  request_id text COLLATE "C",
  done_at bigint,
  version integer NOT NULL,
  PRIMARY KEY (parent, "name"),
  UNIQUE (parent, request_id)
)`,
      `CREATE INDEX operations_by_creation ON operations (parent, ${operationsTable.column('creationTimestamp')!.name} DESC, "name" COLLATE "C")`,
      'CREATE INDEX operations_running ON operations (parent) WHERE done_at IS NULL',
      'CREATE INDEX operations_done ON operations (done_at) WHERE done_at IS NOT NULL',
      `CREATE TABLE orders (
  package_name text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  state jsonb NOT NULL,
  refunded boolean NOT NULL,
  PRIMARY KEY (package_name, order_id)
)`,
      'CREATE TABLE emulator_settings (key text COLLATE "C" PRIMARY KEY, value jsonb NOT NULL)',
      'CREATE TABLE request_log (seq bigserial PRIMARY KEY, entry jsonb NOT NULL)',
    ],
  },
  {
    version: 2,
    description:
      'rules by address (clash rule) and by pool position, free-address cursors (allocation)',
    statements: [
      `ALTER TABLE forwarding_rules
  ADD COLUMN IF NOT EXISTS address_key text COLLATE "C",
  ADD COLUMN IF NOT EXISTS pool_kind text COLLATE "C",
  ADD COLUMN IF NOT EXISTS pool_index integer`,
      'CREATE INDEX IF NOT EXISTS forwarding_rules_by_address ON forwarding_rules (parent, address_key) WHERE address_key IS NOT NULL',
      'CREATE INDEX IF NOT EXISTS forwarding_rules_by_pool_index ON forwarding_rules (parent, pool_kind, pool_index) WHERE pool_index IS NOT NULL',
      `CREATE TABLE IF NOT EXISTS address_pool_cursors (
  parent text COLLATE "C" NOT NULL,
  pool_kind text COLLATE "C" NOT NULL,
  next_index integer NOT NULL,
  PRIMARY KEY (parent, pool_kind)
)`,
      `CREATE TABLE IF NOT EXISTS address_pool_freed (
  parent text COLLATE "C" NOT NULL,
  pool_kind text COLLATE "C" NOT NULL,
  pool_index integer NOT NULL,
  PRIMARY KEY (parent, pool_kind, pool_index)
)`,
    ],
    backfill: async (tx) => {
      const rows = await tx.query<{ parent: string; name: string; address: string | null }>(
        `SELECT parent, "name", ${rulesTable.document}->>'IPAddress' AS address FROM forwarding_rules`,
      );
      const filled = rows.flatMap((row) => {
        const [key, kind, index] = addressColumns(row.address ?? undefined);
        return key === null ? [] : [{ parent: row.parent, name: row.name, key, kind, index }];
      });
      // BACKFILL_BATCH rules a statement: a database of 10^5 rules upgrades in 100 statements.
      for (let from = 0; from < filled.length; from += BACKFILL_BATCH) {
        await tx.query(
          `UPDATE forwarding_rules AS f SET address_key = v."key", pool_kind = v.kind, pool_index = v."index"
FROM jsonb_to_recordset($1::jsonb) AS v(parent text, "name" text, "key" text, kind text, "index" integer)
WHERE f.parent = v.parent AND f."name" = v."name"`,
          [JSON.stringify(filled.slice(from, from + BACKFILL_BATCH))],
        );
      }
    },
  },
  {
    version: 3,
    description:
      'listkit_lowest_free_position: whether a guessed ephemeral address is the one to take',
    statements: [LOWEST_FREE_POSITION],
  },
  {
    // Version 1 made a request log table that no build wrote to (the log stays in each process:
    // docs/decisions/0028-stores-memory-by-default-pglite-for-one-process-on-disk.md); a database of any earlier version held no row in it.
    version: 4,
    description: 'drop request_log, which no build wrote to',
    statements: ['DROP TABLE IF EXISTS request_log'],
  },
  {
    version: 5,
    description:
      'named snapshots of the whole state (their exported text), shared by every process',
    statements: [
      `CREATE TABLE IF NOT EXISTS listkit_snapshots (
  name text COLLATE "C" PRIMARY KEY,
  taken_at text NOT NULL,
  bytes bigint NOT NULL,
  image text NOT NULL
)`,
    ],
  },
  {
    // A restore copies these rows back within the database (INSERT … SELECT) instead of sending
    // and casting the image's again: decisions 0075.
    version: 6,
    description: "each snapshot's rows, kept in copies of the state tables",
    statements: IMAGE_TABLES.flatMap((table) => [
      `CREATE TABLE IF NOT EXISTS ${snapshotTable(table)} (snapshot text COLLATE "C" NOT NULL REFERENCES listkit_snapshots (name) ON DELETE CASCADE, LIKE ${table})`,
      `CREATE INDEX IF NOT EXISTS ${snapshotTable(table)}_by_snapshot ON ${snapshotTable(table)} (snapshot)`,
    ]),
    // The snapshots kept by version 5 get their rows from their text.
    backfill: async (tx) => {
      const kept = await tx.query<{ name: string; image: string }>(
        'SELECT name, image FROM listkit_snapshots',
      );
      for (const { name, image } of kept) {
        await keepSnapshotRows(tx, name, (JSON.parse(image) as { store: StoreImage }).store);
      }
    },
  },
  {
    // A restore's anti-joins look a row up in the copy by snapshot and key: with an index on the
    // snapshot alone, a nested-loop plan scanned every kept row per row (10^5 rules: no end).
    version: 7,
    description: "each snapshot copy keyed by the snapshot's name and its table's key",
    statements: Object.entries(SNAPSHOT_COPY_KEYS).flatMap(([table, key]) => [
      `CREATE UNIQUE INDEX IF NOT EXISTS ${snapshotTable(table)}_by_key ON ${snapshotTable(table)} (snapshot, ${key.join(', ')})`,
      `DROP INDEX IF EXISTS ${snapshotTable(table)}_by_snapshot`,
    ]),
  },
];

/**
 * The newest schema version this build knows; a database recording a newer one is refused.
 *
 * @example
 * ```ts
 * SCHEMA_VERSION; // 7
 * ```
 */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

/**
 * Brings the database to {@link SCHEMA_VERSION}: in one transaction under an advisory lock,
 * applies the steps not yet recorded. Idempotent; refuses a database newer than this build.
 *
 * @example
 * ```ts
 * await migrate(db); // at every open
 * ```
 */
export function migrate(db: SqlDatabase): Promise<number[]> {
  return runMigrations(db, MIGRATIONS);
}
