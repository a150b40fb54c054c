// SQL paging benchmark: pages of 500 listed from PostgreSQL through @listkit/query/sql
// (listFromSql: plan, the statement settings and the statement, residual, token), side by side
// with the in-memory Collection over the same rules, with the limit (the same statements run
// bare: one round trip, rows received and JSON.parse'd, no planning, no settings, no token) and
// with naive OFFSET paging in SQL. listFromSql runs twice: as one simple query
// (simpleQueryText: one message, one round trip) and as BEGIN / settings / statement / COMMIT
// (four round trips, the runner docs/sql.md showed before). The same pages also come from a
// second table whose document is `json` (sqlTable's documentType: 'json': the resource kept as
// the text table.row wrote, read without converting jsonb to text), one query and its limit.
// Needs a server: LISTKIT_PG_URL (e.g. `.ci/with-postgres.sh pnpm bench`); skips without one.
// Tables are kept between runs (bench_rules_<n>_<layout hash>) so that the 10^6 load happens once per cluster;
// the jsonb table is copied from the json one on the server (the same rows, the document cast).
// Prints; never asserts. Knobs: BENCH_SQL_SIZES (default "10000,1000000"), BENCH_SQL_PAGES (30),
// BENCH_SQL_ROUNDS (5).
import { Collection, PageTokenCodec } from '@listkit/query';
import { listFromSql, suggestIndexes } from '@listkit/query/sql';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { benchTable, oneQueryRunner, openExactClient } from './pg-bench-tables.mjs';

const url = process.env.LISTKIT_PG_URL;
if (!url) {
  console.log('SQL benchmark skipped: set LISTKIT_PG_URL (or run under .ci/with-postgres.sh)');
  process.exit(0);
}
const SIZES = (process.env.BENCH_SQL_SIZES ?? '10000,1000000').split(',').map(Number);
const PAGES = Number(process.env.BENCH_SQL_PAGES ?? 30);
const ROUNDS = Number(process.env.BENCH_SQL_ROUNDS ?? 5);
const PAGE = 500;
const BATCH = 5000;

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

const client = await openExactClient(url);

const runOneQuery = oneQueryRunner(client);

/** Four round trips: BEGIN, the settings, the statement, COMMIT. */
const runTransaction = async (statements) => {
  await client.query('BEGIN');
  try {
    let rows = [];
    for (const s of statements) rows = (await client.query(s.text, [...s.params])).rows;
    await client.query('COMMIT');
    return rows;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
};

const CAST = { 'double precision': 'float8' };

/**
 * Loads the rules into `table` unless it holds them already. With `from` (a loaded table of the
 * same rules whose document is `json`: the text table.row wrote), the rows are copied on the
 * server, the document cast as an INSERT of that text would cast it, instead of sent again from
 * here (a 10^6-row load: ~100 s from the client on a quiet machine).
 */
async function load(table, rules, from) {
  const { rows } = await client.query(`SELECT to_regclass($1) AS t`, [table.name]);
  if (rows[0].t) {
    const count = await client.query(`SELECT count(*)::int AS n FROM ${table.name}`);
    if (count.rows[0].n === rules.length) return 0;
    await client.query(`DROP TABLE ${table.name}`);
  }
  const start = now();
  await client.query(table.createTable());
  if (from) {
    const columns = table.insertColumns.slice(1); // the document first, then the same columns
    await client.query(
      `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) SELECT ${from.document}::${table.documentType}, ${columns.join(', ')} FROM ${from.name}`,
    );
  } else await insertRules(table, rules);
  for (const ddl of suggestIndexes(table, { orderings: forwardingRuleSchema.orderings })) {
    await client.query(ddl);
  }
  await client.query(`ANALYZE ${table.name}`);
  return ms(start, now()) / 1000;
}

/** The rules sent from here in multi-row INSERTs of BATCH rows (one unnest per column). */
async function insertRules(table, rules) {
  const types = [table.documentType, ...table.columns.map((c) => CAST[c.sqlType] ?? c.sqlType)];
  const select = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  const insert = `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) SELECT * FROM unnest(${select})`;
  for (let at = 0; at < rules.length; at += BATCH) {
    const columns = types.map(() => []);
    for (const rule of rules.slice(at, at + BATCH)) {
      for (const [i, v] of table.row(rule).entries()) columns[i].push(v);
    }
    await client.query(insert, columns);
  }
}

/** The page tokens of a walk's first PAGES pages (undefined for the first page). */
async function tokensOf(list, request) {
  const tokens = [undefined];
  while (tokens.length < PAGES) {
    const page = await list({ ...request, pageSize: PAGE, pageToken: tokens.at(-1) });
    if (!page.nextPageToken) break;
    tokens.push(page.nextPageToken);
  }
  return tokens;
}

/**
 * Median ms per page of each way of answering the same pages, timed page by page in rotation
 * (page i by every way, then page i + 1 starting with the next way), ROUNDS times over the walk:
 * on a shared machine the noise then falls on every way alike. The first page (which warms
 * caches and plans) is left out, unless it is the only one. `warm(i)`, untimed, runs before page i's ways: the first way to
 * read a page's rows would otherwise also pay for bringing them into shared buffers (the two
 * 10^6-row tables are larger than shared_buffers), and with several ways per table the rotation
 * does not make every way the first alike (jsonb's one query came first 4 times in 6).
 */
async function rotated(ways, warm = async () => {}) {
  const times = ways.map(() => []);
  const pages = Math.min(...ways.map((w) => w.pages));
  // A walk of one page (a filter matching fewer than a page of rows) has only its first page to
  // time; leaving it out left no sample, and the summary stopped on an undefined median.
  const first = pages > 1 ? 1 : 0;
  let turn = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = first; i < pages; i++) {
      turn++;
      await warm(i);
      for (let k = 0; k < ways.length; k++) {
        const w = (k + turn) % ways.length;
        const start = now();
        await ways[w].page(i);
        times[w].push(ms(start, now()));
      }
    }
  }
  return times.map((t) => median(t));
}

/**
 * The limit of one listed page: its statement alone, as node-postgres sends a parameterised
 * query (one round trip), its rows JSON.parse'd as listFromSql does.
 */
async function limitPage(statement) {
  const { rows } = await client.query(statement.text, [...statement.params]);
  for (const row of rows) JSON.parse(row.resource);
}

async function offsetPage(table, pageIndex) {
  const start = now();
  const { rows } = await client.query(
    `SELECT ${table.document}::text AS resource FROM ${table.name} ORDER BY "name" COLLATE "C" LIMIT ${PAGE + 1} OFFSET ${pageIndex * PAGE}`,
  );
  rows.map((row) => JSON.parse(row.resource)); // the same work as listFromSql does with its rows
  return ms(start, now());
}

const codec = await PageTokenCodec.create();
const CASES = [
  { label: 'by name', orderBy: '', filter: '' },
  { label: 'creationTimestamp desc', orderBy: 'creationTimestamp desc', filter: '' },
  { label: 'labels.env = "prod" (GIN), by name', orderBy: '', filter: 'labels.env = "prod"' },
  {
    label: 'labels.team = "infra" (GIN), creationTimestamp desc',
    orderBy: 'creationTimestamp desc',
    filter: 'labels.team = "infra"',
  },
];

const results = new Map();
/** The statement of each page as listFromSql plans it. */
async function plannedStatements(request, table, tokens) {
  const statements = [];
  for (const pageToken of tokens) {
    await listFromSql(
      { ...request, pageSize: PAGE, pageToken },
      {
        table,
        pageTokens: codec,
        run: (st) => {
          statements.push(st.at(-1));
          return runOneQuery(st);
        },
      },
    );
  }
  return statements;
}

for (const size of SIZES) {
  const rules = sampleForwardingRules(size);
  const table = benchTable(size, 'jsonb');
  const jsonTable = benchTable(size, 'json');
  // The json table first, from here; the jsonb table from it on the server (the same rows).
  for (const [t, from] of [
    [jsonTable, undefined],
    [table, jsonTable],
  ]) {
    const loadSeconds = await load(t, rules, from);
    if (loadSeconds)
      console.log(`loaded ${size} rows (${t.documentType}) in ${loadSeconds.toFixed(1)} s`);
  }
  const collection = new Collection(forwardingRuleSchema, { pageTokens: codec });
  for (const rule of rules) collection.put(rule);
  const sql = (request) => listFromSql(request, { table, pageTokens: codec, run: runOneQuery });
  const sqlJson = (request) =>
    listFromSql(request, { table: jsonTable, pageTokens: codec, run: runOneQuery });
  const sqlTransaction = (request) =>
    listFromSql(request, { table, pageTokens: codec, run: runTransaction });
  const memory = (request) => collection.list(request);
  for (const c of CASES) {
    const tokens = await tokensOf(sql, c);
    const jsonTokens = await tokensOf(sqlJson, c);
    const memoryTokens = await tokensOf(memory, c);
    const statements = await plannedStatements(c, table, tokens);
    const jsonStatements = await plannedStatements(c, jsonTable, jsonTokens);
    const at = (list, pageTokens) => (i) =>
      list({ ...c, pageSize: PAGE, pageToken: pageTokens[i] });
    const [one, transaction, limit, json, jsonLimit, inMemory] = await rotated(
      [
        { pages: tokens.length, page: at(sql, tokens) },
        { pages: tokens.length, page: at(sqlTransaction, tokens) },
        { pages: statements.length, page: (i) => limitPage(statements[i]) },
        { pages: jsonTokens.length, page: at(sqlJson, jsonTokens) },
        { pages: jsonStatements.length, page: (i) => limitPage(jsonStatements[i]) },
        { pages: memoryTokens.length, page: at(memory, memoryTokens) },
      ],
      async (i) => {
        // Each table's rows of page i into shared buffers (the statement alone, rows discarded).
        for (const s of [statements[i], jsonStatements[i]]) {
          if (s) await client.query(s.text, [...s.params]);
        }
      },
    );
    results.set(`${size}|${c.label}`, {
      sql: one,
      transaction,
      memory: inMemory,
      limit,
      json,
      jsonLimit,
    });
  }
  const pages = Math.ceil(size / PAGE);
  const offsets = [];
  for (const index of [0, Math.floor(pages / 2), pages - 1])
    offsets.push(await offsetPage(table, index));
  results.set(`${size}|offset`, { first: offsets[0], middle: offsets[1], last: offsets[2] });
  collection.clear();
}

const big = Math.max(...SIZES);
const small = Math.min(...SIZES);
console.log(
  `\n### SQL paging (ms per page of ${PAGE}, median of ${PAGES - 1} consecutive pages × ${ROUNDS} rounds, the six ways in rotation page by page)\n`,
);
console.log(
  '| rows | case | jsonb: one query | jsonb: BEGIN … COMMIT | jsonb: limit | json: one query | json: limit | in-memory | jsonb one query / memory | json one query / memory | json limit / memory | one query / limit (jsonb, json) |',
);
console.log('|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const x = (a, b) => `${(a / b).toFixed(2)}x`;
for (const size of SIZES) {
  for (const c of CASES) {
    const r = results.get(`${size}|${c.label}`);
    console.log(
      `| ${size} | ${c.label} | ${fmt(r.sql)} | ${fmt(r.transaction)} | ${fmt(r.limit)} | ${fmt(r.json)} | ${fmt(r.jsonLimit)} | ${fmt(r.memory)} | ${x(r.sql, r.memory)} | ${x(r.json, r.memory)} | ${x(r.jsonLimit, r.memory)} | ${x(r.sql, r.limit)}, ${x(r.json, r.jsonLimit)} |`,
    );
  }
}
if (SIZES.length > 1) {
  console.log(`\n### Per-page cost, ${big} / ${small} rows (keyset: should stay near 1)\n`);
  console.log('| case | PostgreSQL (jsonb) | PostgreSQL (json) | in-memory |');
  console.log('|:---|---:|---:|---:|');
  for (const c of CASES) {
    const a = results.get(`${big}|${c.label}`);
    const b = results.get(`${small}|${c.label}`);
    console.log(
      `| ${c.label} | ${(a.sql / b.sql).toFixed(2)} | ${(a.json / b.json).toFixed(2)} | ${(a.memory / b.memory).toFixed(2)} |`,
    );
  }
  const unfiltered = results.get(`${big}|by name`).sql;
  console.log(`\n### Filtered vs unfiltered page at ${big} rows (PostgreSQL)\n`);
  console.log('| case | ms | / unfiltered |');
  console.log('|:---|---:|---:|');
  for (const c of CASES.slice(2)) {
    const r = results.get(`${big}|${c.label}`).sql;
    console.log(`| ${c.label} | ${fmt(r)} | ${(r / unfiltered).toFixed(2)}x |`);
  }
}
console.log(
  `\n### Peer: naive OFFSET paging in SQL, by name (ms per page of ${PAGE}, one run each)\n`,
);
console.log('| rows | first page | middle page | last page | keyset page (listFromSql) |');
console.log('|---:|---:|---:|---:|---:|');
for (const size of SIZES) {
  const o = results.get(`${size}|offset`);
  console.log(
    `| ${size} | ${fmt(o.first)} | ${fmt(o.middle)} | ${fmt(o.last)} | ${fmt(results.get(`${size}|by name`).sql)} |`,
  );
}
await client.end();
