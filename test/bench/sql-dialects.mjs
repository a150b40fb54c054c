// A page of 500 by name at 10^5 rows (BENCH_DIALECT_ROWS) on each SQL dialect's engine, against
// the in-memory Collection's page over the same resources in the same run (issue 34). Engines:
// SQLite in process (better-sqlite3, in memory), PGlite in process; MariaDB (mysql2 over a Unix
// socket) when LISTKIT_MARIADB_URL is set (.ci/with-mariadb.sh); the Cloud Spanner emulator when
// SPANNER_EMULATOR_HOST is set (.ci/with-spanner.sh; the emulator is Spanner's semantics, not its
// speed). ms per page of consecutive keyset pages after the first, over three rounds, memory and
// the engine taking turns page by page: the median and the fastest on the wall clock (on a loaded
// machine a page that waits on a server waits for a core too; the fastest did not), and for the
// engines in this process (SQLite, PGlite) the median in the process's CPU time, which a wait
// for a core does not inflate (decision 0081). Rows and
// loading: sql-bench-rows.mjs. Prints; never asserts; writes no tracked file.
import { PGlite } from '@electric-sql/pglite';
import { Collection, PageTokenCodec } from '@listkit/query';
import {
  listFromSql,
  mysql2Runner,
  pgliteRunner,
  spannerRunner,
  sqliteRunner,
  sqlTable,
} from '@listkit/query/sql';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import {
  benchRules,
  benchSchema,
  loadMysql,
  loadPostgres,
  loadSpanner,
  loadSqlite,
} from './sql-bench-rows.mjs';

const ROWS = Number(process.env.BENCH_DIALECT_ROWS ?? 100_000);
const PAGES = Number(process.env.BENCH_DIALECT_PAGES ?? 12);
const PAGE = 500;

const now = () => process.hrtime.bigint();
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fastest = (xs) => Math.min(...xs);
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** One page of `list` after `pageToken`; its wall-clock and CPU ms go to `times` unless first. */
async function timedPage(list, request, pageToken, first, times) {
  const from = now();
  const cpuFrom = cpuNow();
  const page = await list({ ...request, pageSize: PAGE, pageToken });
  if (!first) {
    times.wall.push(Number(now() - from) / 1e6);
    times.cpu.push((cpuNow() - cpuFrom) / 1e3);
  }
  return page.nextPageToken ?? null;
}

/**
 * Median ms per page of the engine and of memory over three rounds of PAGES consecutive pages,
 * the two taking turns page by page, so that the machine's load falls on both alike.
 */
async function compare(engineList, request) {
  const memoryList = (r) => collection.list(r);
  const memory = { wall: [], cpu: [] };
  const engine = { wall: [], cpu: [] };
  for (let round = 0; round < 3; round++) {
    let memoryToken;
    let engineToken;
    for (let p = 0; p <= PAGES && memoryToken !== null && engineToken !== null; p++) {
      memoryToken = await timedPage(memoryList, request, memoryToken, p === 0, memory);
      engineToken = await timedPage(engineList, request, engineToken, p === 0, engine);
    }
  }
  const m = (t) => ({ wall: median(t.wall), fastest: fastest(t.wall), cpu: median(t.cpu) });
  return { memory: m(memory), engine: m(engine) };
}

const codec = await PageTokenCodec.create();
const resources = benchRules(ROWS);
const collection = new Collection(benchSchema, { pageTokens: codec });
for (const r of resources) collection.put(r);

async function sqliteEngine() {
  const db = new Database(':memory:');
  const table = sqlTable(benchSchema, {
    table: 'rules',
    dialect: 'sqlite',
    required: ['creationTimestamp'],
  });
  loadSqlite(db, table, resources);
  return {
    name: 'SQLite (better-sqlite3, in memory)',
    table,
    run: sqliteRunner(db),
    inProcess: true,
    close: () => db.close(),
  };
}

async function pgliteEngine() {
  const db = await PGlite.create();
  const table = sqlTable(benchSchema, { table: 'rules', required: ['creationTimestamp'] });
  await loadPostgres(
    { query: (text, params) => db.query(text, params), exec: (text) => db.exec(text) },
    table,
    resources,
  );
  return {
    name: 'PGlite (in process)',
    table,
    run: pgliteRunner(db),
    inProcess: true,
    close: () => db.close(),
  };
}

async function mariadbEngine() {
  const pool = mysql.createPool({ uri: process.env.LISTKIT_MARIADB_URL, connectionLimit: 2 });
  const table = sqlTable(benchSchema, {
    table: `bench_rules_${process.pid}`,
    dialect: 'mysql',
    required: ['creationTimestamp'],
  });
  await loadMysql(pool, table, resources);
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

async function spannerEngine() {
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
  const table = sqlTable(benchSchema, {
    table: 'rules',
    dialect: 'spanner',
    required: ['creationTimestamp'],
  });
  await loadSpanner(database, table, resources);
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

console.log(
  `SQL dialects: a page of ${PAGE} at ${ROWS} rows (ms per page, median; ratio to in memory, walked in turn)`,
);
const engines = [sqliteEngine, pgliteEngine];
if (process.env.LISTKIT_MARIADB_URL) engines.push(mariadbEngine);
else console.log('MariaDB: skipped (set LISTKIT_MARIADB_URL, or run under .ci/with-mariadb.sh)');
if (process.env.SPANNER_EMULATOR_HOST) engines.push(spannerEngine);
else console.log('Spanner emulator: skipped (run under .ci/with-spanner.sh)');
for (const open of engines) {
  const engine = await open();
  const cells = [];
  for (const { label, request } of REQUESTS) {
    const { memory, engine: sql } = await compare(
      (r) => listFromSql(r, { table: engine.table, pageTokens: codec, run: engine.run }),
      request,
    );
    const ratio = (kind) => `${fmt(sql[kind])} (${(sql[kind] / memory[kind]).toFixed(1)}x)`;
    cells.push(
      `${label}: in memory ${fmt(memory.wall)}, ${ratio('wall')}; fastest in memory ` +
        `${fmt(memory.fastest)}, ${ratio('fastest')}` +
        (engine.inProcess ? `; CPU in memory ${fmt(memory.cpu)}, ${ratio('cpu')}` : ''),
    );
  }
  console.log(`${engine.name}: ${cells.join(' | ')}`);
  await engine.close();
}
