// A page of 500 by name at 10^5 rows (BENCH_DIALECT_ROWS) on each SQL dialect's engine, against
// the in-memory Collection's page over the same resources in the same run (issue 34). Engines:
// SQLite in process (better-sqlite3, in memory), PGlite in process; MariaDB (mysql2 over a Unix
// socket) when LISTKIT_MARIADB_URL is set (.ci/with-mariadb.sh); the Cloud Spanner emulator when
// SPANNER_EMULATOR_HOST is set (.ci/with-spanner.sh; the emulator is Spanner's semantics, not its
// speed). ms per page: the median of consecutive keyset pages after the first,
// over three rounds. Prints; never asserts; writes no tracked file.
import { PGlite } from '@electric-sql/pglite';
import { Collection, defineSchema, PageTokenCodec, t } from '@listkit/query';
import {
  listFromSql,
  mysql2Runner,
  pgliteRunner,
  spannerRunner,
  sqliteRunner,
  sqlTable,
  suggestIndexes,
} from '@listkit/query/sql';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';

const ROWS = Number(process.env.BENCH_DIALECT_ROWS ?? 100_000);
const PAGES = Number(process.env.BENCH_DIALECT_PAGES ?? 12);
const PAGE = 500;
const BATCH = 2000;

const schema = defineSchema({
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

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** Deterministic rules: a linear congruential generator. */
function rules(n) {
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

/** Median ms per page of consecutive pages after the first (three rounds). */
async function pageTime(list, request) {
  const times = [];
  for (let round = 0; round < 3; round++) {
    let pageToken;
    for (let p = 0; p <= PAGES; p++) {
      const from = now();
      const page = await list({ ...request, pageSize: PAGE, pageToken });
      const to = now();
      if (p > 0) times.push(ms(from, to));
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
  }
  return median(times);
}

const codec = await PageTokenCodec.create();
const resources = rules(ROWS);
const collection = new Collection(schema, { pageTokens: codec });
for (const r of resources) collection.put(r);

async function loadSqlite() {
  const db = new Database(':memory:');
  const table = sqlTable(schema, {
    table: 'rules',
    dialect: 'sqlite',
    required: ['creationTimestamp'],
  });
  db.exec(table.createTable());
  for (const ddl of suggestIndexes(table)) db.exec(ddl);
  const insert = db.prepare(table.insert(resources[0]).text);
  db.transaction(() => {
    for (const r of resources) insert.run(...table.insert(r).params);
  })();
  return {
    name: 'SQLite (better-sqlite3, in memory)',
    table,
    run: sqliteRunner(db),
    close: () => db.close(),
  };
}

async function loadPglite() {
  const db = await PGlite.create();
  const table = sqlTable(schema, { table: 'rules', required: ['creationTimestamp'] });
  await db.exec(table.createTable());
  for (const ddl of suggestIndexes(table)) await db.exec(ddl);
  const cols = table.insertColumns;
  for (let i = 0; i < resources.length; i += BATCH) {
    const batch = resources.slice(i, i + BATCH);
    const params = batch.flatMap((r) => table.row(r));
    const values = batch.map(
      (_, r) => `(${cols.map((_, c) => `$${r * cols.length + c + 1}`).join(', ')})`,
    );
    await db.query(`INSERT INTO rules (${cols.join(', ')}) VALUES ${values.join(', ')}`, params);
  }
  await db.exec('ANALYZE rules');
  return { name: 'PGlite (in process)', table, run: pgliteRunner(db), close: () => db.close() };
}

async function loadMariadb() {
  const pool = mysql.createPool({ uri: process.env.LISTKIT_MARIADB_URL, connectionLimit: 2 });
  const table = sqlTable(schema, {
    table: `bench_rules_${process.pid}`,
    dialect: 'mysql',
    required: ['creationTimestamp'],
  });
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
  const version = (await pool.query('SELECT VERSION() AS v'))[0][0].v;
  return {
    name: `MariaDB ${version.split('-')[0]} (mysql2, Unix socket)`,
    table,
    run: mysql2Runner(pool),
    close: async () => {
      await pool.query(`DROP TABLE IF EXISTS ${table.name}`);
      await pool.end();
    },
  };
}

async function loadSpanner() {
  process.env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS ??= 'false';
  const { Spanner } = await import('@google-cloud/spanner');
  const spanner = new Spanner({ projectId: process.env.LISTKIT_SPANNER_PROJECT ?? 'listkit-test' });
  const instance = spanner.instance(process.env.LISTKIT_SPANNER_INSTANCE ?? 'listkit');
  if (!(await instance.exists())[0]) {
    const [, op] = await spanner.createInstance(instance.id, {
      config: 'emulator-config',
      nodes: 1,
    });
    await op.promise();
  }
  const [database, created] = await instance.createDatabase(`bench${Date.now().toString(36)}`);
  await created.promise();
  const table = sqlTable(schema, {
    table: 'rules',
    dialect: 'spanner',
    required: ['creationTimestamp'],
  });
  const [ddl] = await database.updateSchema([table.createTable()]);
  await ddl.promise();
  // Mutations (the emulator takes them far faster than DML): every value of this schema's row is
  // text on the wire (STRING, NUMERIC nanoseconds, JSON), as table.row gives it.
  const columns = table.insertColumns.map((c) => c.slice(1, -1));
  const rows = database.table('rules');
  for (let i = 0; i < resources.length; i += BATCH) {
    await rows.insert(
      resources
        .slice(i, i + BATCH)
        .map((r) => Object.fromEntries(table.row(r).map((v, c) => [columns[c], v]))),
    );
  }
  // Indexes after the rows: the emulator backfills them once.
  const [indexes] = await database.updateSchema(suggestIndexes(table));
  await indexes.promise();
  return {
    name: 'Cloud Spanner emulator (gRPC on loopback)',
    table,
    run: spannerRunner(database, { timeoutMs: 60_000 }),
    close: async () => {
      await database.delete();
      await database.close();
      spanner.close();
    },
  };
}

const REQUESTS = [
  { label: 'by name', request: { orderBy: 'name' } },
  {
    label: 'labels.env = prod, by name',
    request: { orderBy: 'name', filter: 'labels.env = prod' },
  },
];

const memory = {};
for (const { label, request } of REQUESTS) {
  memory[label] = await pageTime((r) => collection.list(r), request);
}
console.log(
  `SQL dialects: a page of ${PAGE} at ${ROWS} rows (ms per page, median; ratio to in memory)`,
);
console.log(
  `in memory (Collection): ${REQUESTS.map(({ label }) => `${label} ${fmt(memory[label])}`).join('; ')}`,
);
const engines = [loadSqlite, loadPglite];
if (process.env.LISTKIT_MARIADB_URL) engines.push(loadMariadb);
else console.log('MariaDB: skipped (set LISTKIT_MARIADB_URL, or run under .ci/with-mariadb.sh)');
if (process.env.SPANNER_EMULATOR_HOST) engines.push(loadSpanner);
else console.log('Spanner emulator: skipped (run under .ci/with-spanner.sh)');
for (const load of engines) {
  const engine = await load();
  const cells = [];
  for (const { label, request } of REQUESTS) {
    const time = await pageTime(
      (r) => listFromSql(r, { table: engine.table, pageTokens: codec, run: engine.run }),
      request,
    );
    cells.push(`${label} ${fmt(time)} (${(time / memory[label]).toFixed(1)}x)`);
  }
  console.log(`${engine.name}: ${cells.join('; ')}`);
  await engine.close();
}
