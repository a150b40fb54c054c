import type { SqlDatabase } from './sql-database.js';

/**
 * A table whose statistics list calls depend on (the planner picks their page plans); the store
 * that composes the resources names them when it opens {@link TableStatistics}.
 */
export type AnalysedTable = string;

// PostgreSQL's autovacuum defaults: a table is analysed once 50 rows plus 10% of its rows at the
// last analysis have changed.
const BASE_THRESHOLD = 50;
const SCALE_FACTOR = 0.1;
const thresholdOf = (rows: number) => BASE_THRESHOLD + SCALE_FACTOR * Math.max(0, rows);

/**
 * Keeps the planner's statistics of a PGlite store fresh, and its tables vacuumed. A PostgreSQL
 * server's autovacuum analyses a table after enough of it changed; PGlite has no autovacuum
 * launcher, so its tables would never be analysed and the planner would guess: at 10^5 rules a page of 500 took 325 ms
 * (a bitmap scan of the region and a sort) instead of 6-8 ms by the primary key
 * (BENCHMARKS.md, "Stores over HTTP"). This applies autovacuum's rule in the process: at open,
 * a table whose statistics are missing, or off from its row count by the threshold, is analysed;
 * after that, once 50 rows plus 10% of its rows at the last
 * analysis have been written, it is analysed again, after the write that crossed the line has
 * committed (the answer does not wait for it). On a server it does nothing: autovacuum runs
 * there, for every process sharing the database.
 *
 * @example
 * ```ts
 * const statistics = await TableStatistics.open(db, ['forwarding_rules', 'operations']);
 * statistics.wrote('forwarding_rules'); // after a committed insert
 * await statistics.settled(); // before closing the database
 * ```
 */
export class TableStatistics {
  private readonly changed = new Map<AnalysedTable, number>();
  private readonly rowsAtAnalysis = new Map<AnalysedTable, number>();
  private readonly queued = new Set<AnalysedTable>();
  private pending: Promise<void> = Promise.resolve();

  private constructor(private readonly db: SqlDatabase | undefined) {}

  /**
   * Analyses (PGlite only) each table whose statistics are missing or off by more than the
   * threshold (rows written by an earlier process, or by bulk INSERTs), then starts counting.
   */
  static async open(db: SqlDatabase, tables: readonly AnalysedTable[]): Promise<TableStatistics> {
    if (db.kind !== 'pglite') return new TableStatistics(undefined);
    const statistics = new TableStatistics(db);
    for (const table of tables) {
      const [row] = await db.transaction((tx) =>
        tx.query<{ reltuples: number; rows: string }>(
          `SELECT (SELECT reltuples::float8 FROM pg_class WHERE relname = $1) AS reltuples,
  (SELECT count(*) FROM ${table})::text AS rows`,
          [table],
        ),
      );
      // reltuples is -1 for a table never analysed.
      const estimated = Number(row?.reltuples ?? -1);
      const drift = Math.abs(Number(row?.rows ?? 0) - estimated);
      if (estimated < 0 || drift >= thresholdOf(estimated)) await statistics.analyse(table);
      else statistics.rowsAtAnalysis.set(table, estimated);
    }
    return statistics;
  }

  /** Counts `rows` rows written to `table` by a committed transaction. */
  wrote(table: AnalysedTable, rows = 1): void {
    if (!this.db || rows <= 0) return;
    const changed = (this.changed.get(table) ?? 0) + rows;
    this.changed.set(table, changed);
    if (changed < thresholdOf(this.rowsAtAnalysis.get(table) ?? 0) || this.queued.has(table))
      return;
    this.queued.add(table);
    this.pending = this.pending.then(() =>
      this.analyse(table)
        // Statistics are an optimisation: a failed analysis leaves the old ones, and the next
        // threshold tries again.
        .catch(() => undefined)
        .finally(() => this.queued.delete(table)),
    );
  }

  /** Waits for the analyses started (call before closing the database). */
  settled(): Promise<void> {
    return this.pending;
  }

  private async analyse(table: AnalysedTable): Promise<void> {
    const db = this.db!;
    this.changed.set(table, 0);
    // VACUUM too, as autovacuum would: without it the space of deleted and updated rows is never
    // reused and the data directory grows under churn even with no live rows. It refuses to run
    // inside a transaction.
    await db.outsideTransaction(`VACUUM (ANALYZE) ${table}`);
    // And a checkpoint, as a server's checkpointer would: PGlite has none, and a single-user
    // PostgreSQL checkpoints only at max_wal_size (1 GB), so its write-ahead log grew a 16 MB
    // segment at a time under churn (87 to 152 MB in a 300 s soak); after a checkpoint the old
    // segments are recycled.
    await db.outsideTransaction('CHECKPOINT');
    const rows = await db.transaction((tx) =>
      tx.query<{ reltuples: number }>(
        'SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = $1',
        [table],
      ),
    );
    this.rowsAtAnalysis.set(table, Math.max(0, Number(rows[0]?.reltuples ?? 0)));
  }
}
