// The rows the SQL benchmarks page through (sql-dialects.mjs, sql-builders.mjs), and how each
// engine is loaded with them: one place, so both benches measure the same table on every engine.
import { defineSchema, t } from '@listkit/query';
import { suggestIndexes } from '@listkit/query/sql';

/** Rows per multi-row INSERT (PostgreSQL's 65,535 parameters allow 2,000 rows of 6 columns). */
const BATCH = 2000;

/** Rule-like resources: a name to page by, text, a timestamp, an address and labels. */
export const benchSchema = defineSchema({
  key: 'name',
  orderings: ['', 'name', 'creationTimestamp desc'],
  fields: {
    name: t.string({ searchable: true }),
    description: t.string({ searchable: true }),
    creationTimestamp: t.timestamp(),
    IPAddress: t.string(),
    labels: t.map(t.string()),
  },
});

/** `n` deterministic resources of {@link benchSchema} (a linear congruential generator). */
export function benchRules(n) {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 12;
  };
  const out = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(Date.UTC(2020, 0, 1) + (next() % 100_000_000) * 1000).toISOString();
    out.push({
      name: `rule-${(next() % 1_000_000).toString(36)}-${i}`,
      description: `forwards ${next() % 100} to pool ${next() % 50}`,
      creationTimestamp: at,
      IPAddress: `10.${next() % 256}.${next() % 256}.${next() % 256}`,
      labels: { env: ['prod', 'dev', 'test'][next() % 3], team: `t${next() % 20}` },
    });
  }
  return out;
}

/** Creates the table and its suggested indexes in a better-sqlite3 database and fills it. */
export function loadSqlite(db, table, resources) {
  db.exec(table.createTable());
  for (const ddl of suggestIndexes(table)) db.exec(ddl);
  const insert = db.prepare(table.insert(resources[0]).text);
  db.transaction(() => {
    for (const r of resources) insert.run(...table.insert(r).params);
  })();
}

/**
 * The same on PostgreSQL or PGlite: `query(text, params)` and `exec(text)` are the driver's;
 * multi-row INSERTs of {@link BATCH}, then ANALYZE.
 */
export async function loadPostgres({ query, exec }, table, resources) {
  await exec(table.createTable());
  for (const ddl of suggestIndexes(table)) await exec(ddl);
  const cols = table.insertColumns;
  for (let i = 0; i < resources.length; i += BATCH) {
    const batch = resources.slice(i, i + BATCH);
    const values = batch.map(
      (_, r) => `(${cols.map((_, c) => `$${r * cols.length + c + 1}`).join(', ')})`,
    );
    await query(
      `INSERT INTO ${table.name} (${cols.join(', ')}) VALUES ${values.join(', ')}`,
      batch.flatMap((r) => table.row(r)),
    );
  }
  await exec(`ANALYZE ${table.name}`);
}

/** The same on MySQL or MariaDB through a mysql2/promise pool (the table dropped first). */
export async function loadMysql(pool, table, resources) {
  await pool.query(`DROP TABLE IF EXISTS ${table.name}`);
  await pool.query(table.createTable());
  for (const ddl of suggestIndexes(table)) await pool.query(ddl);
  const cols = table.insertColumns;
  for (let i = 0; i < resources.length; i += BATCH) {
    const batch = resources.slice(i, i + BATCH);
    const values = batch.map(() => `(${cols.map(() => '?').join(', ')})`);
    await pool.execute(
      `INSERT INTO ${table.name} (${cols.join(', ')}) VALUES ${values.join(', ')}`,
      batch.flatMap((r) => table.row(r)),
    );
  }
  await pool.query(`ANALYZE TABLE ${table.name}`);
}

/**
 * The same on Cloud Spanner (a `Database` of @google-cloud/spanner): the table, the rows as
 * mutations of {@link BATCH} (the emulator takes them far faster than DML; every value of this
 * schema's row is text on the wire, as `table.row` gives it), then the indexes, so the emulator
 * backfills them once.
 */
export async function loadSpanner(database, table, resources) {
  const [ddl] = await database.updateSchema([table.createTable()]);
  await ddl.promise();
  const columns = table.insertColumns.map((c) => c.slice(1, -1));
  const rows = database.table(table.name.replaceAll('`', ''));
  for (let i = 0; i < resources.length; i += BATCH) {
    await rows.insert(
      resources
        .slice(i, i + BATCH)
        .map((r) => Object.fromEntries(table.row(r).map((v, c) => [columns[c], v]))),
    );
  }
  const [indexes] = await database.updateSchema(suggestIndexes(table));
  await indexes.promise();
}
