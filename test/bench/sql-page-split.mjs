// Where a SQL page's time goes (issue 38's "SQL page of 500 at 10^6 / in-memory page" row): over
// the 10^6-row tables that test/bench/sql.mjs keeps in its cluster (run sql.mjs first, same
// LISTKIT_PG_URL), a page of 500 by name from the middle of the order, split into steps each
// timed alone, in rotation page by page (the noise falls on every step alike), medians:
//   - a trivial round trip (SELECT 1);
//   - the page's settings and statement as one simple query, rows received as text;
//   - the same and JSON.parse of each row's resource;
//   - listFromSql's whole page (plan, settings and statement, parse, token);
//   - listFromSql's page from rows received beforehand (no I/O), and those rows' JSON.parse alone;
// then the server's side: EXPLAIN (ANALYZE, BUFFERS) of one page, and its execution time
// (EXPLAIN (ANALYZE, TIMING OFF)) over the same pages. For the `jsonb` and `json` documents.
// Prints; never asserts. Knobs: BENCH_SPLIT_PAGES (40), BENCH_SPLIT_ROUNDS (5).
import { PageTokenCodec } from '@listkit/query';
import { listFromSql, simpleQueryText } from '@listkit/query/sql';
import { benchTable, oneQueryRunner, openExactClient } from './pg-bench-tables.mjs';

const url = process.env.LISTKIT_PG_URL;
if (!url) {
  console.log('SQL page split skipped: set LISTKIT_PG_URL to the cluster sql.mjs loaded');
  process.exit(0);
}
const SIZE = 1_000_000;
const PAGES = Number(process.env.BENCH_SPLIT_PAGES ?? 40);
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 5);
const PAGE = 500;

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const client = await openExactClient(url);
const runOneQuery = oneQueryRunner(client);
const lastRows = (results) => (Array.isArray(results) ? results.at(-1) : results).rows;

const codec = await PageTokenCodec.create();
for (const documentType of ['jsonb', 'json']) {
  const table = benchTable(SIZE, documentType);
  const exists = await client.query('SELECT to_regclass($1) AS t', [table.name]);
  if (!exists.rows[0].t) {
    console.log(`no table ${table.name}: run test/bench/sql.mjs on this cluster first`);
    continue;
  }
  const list = (pageToken, run = runOneQuery) =>
    listFromSql({ pageSize: PAGE, pageToken }, { table, pageTokens: codec, run });
  // Walk to the middle of the order (page SIZE / PAGE / 2), then keep PAGES consecutive pages.
  let token;
  for (let p = 0; p < SIZE / PAGE / 2; p++) token = (await list(token)).nextPageToken;
  const tokens = [token];
  const statements = [];
  while (tokens.length <= PAGES) {
    let captured;
    const page = await list(tokens.at(-1), (st) => {
      captured = st;
      return runOneQuery(st);
    });
    statements.push(captured);
    tokens.push(page.nextPageToken);
  }
  const received = [];
  for (const st of statements) received.push(await runOneQuery(st));
  const steps = [
    ['SELECT 1 round trip', async () => client.query('SELECT 1')],
    ['settings + statement, rows received', async (i) => runOneQuery(statements[i])],
    [
      '… and JSON.parse of the rows',
      async (i) => {
        for (const row of await runOneQuery(statements[i])) JSON.parse(row.resource);
      },
    ],
    ['listFromSql page', async (i) => list(tokens[i])],
    // listkit's own part: the same page from rows already received (no I/O), and their parse.
    [
      'listFromSql page from rows already received',
      async (i) => list(tokens[i], async () => received[i]),
    ],
    [
      'JSON.parse of the rows already received',
      async (i) => {
        for (const row of received[i]) JSON.parse(row.resource);
      },
    ],
  ];
  const times = steps.map(() => []);
  let turn = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < PAGES; i++) {
      await runOneQuery(statements[i]); // the page's rows into shared buffers, untimed
      turn++;
      for (let k = 0; k < steps.length; k++) {
        const s = (k + turn) % steps.length;
        const t0 = now();
        await steps[s][1](i);
        times[s].push(ms(t0, now()));
      }
    }
  }
  const rows = await runOneQuery(statements[0]);
  const texts = rows.map((r) => r.resource);
  const parse = [];
  for (let r = 0; r < 200; r++) {
    const t0 = now();
    for (const t of texts) JSON.parse(t);
    parse.push(ms(t0, now()));
  }
  const server = [];
  for (const st of statements) {
    const [settings, statement] = st;
    const explain = {
      text: `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statement.text}`,
      params: statement.params,
    };
    const plan = lastRows(await client.query(simpleQueryText([settings, explain])));
    server.push(plan[0]['QUERY PLAN'][0]['Execution Time']);
  }
  const [settings, statement] = statements[Math.floor(PAGES / 2)];
  const explained = lastRows(
    await client.query(
      simpleQueryText([
        settings,
        { text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, params: statement.params },
      ]),
    ),
  );
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  console.log(
    `\n### ${documentType} document, ${table.name}: ms per page of ${PAGE} (+1), medians of ${PAGES} pages × ${ROUNDS} rounds\n`,
  );
  console.log('| step | ms |\n|:---|---:|');
  for (const [k, [label]] of steps.entries()) {
    console.log(`| ${label} | ${median(times[k]).toFixed(2)} |`);
  }
  console.log(
    `| JSON.parse alone of the ${texts.length} texts (${(bytes / 1024).toFixed(0)} kB) | ${median(parse).toFixed(2)} |`,
  );
  console.log(`| server execution (EXPLAIN ANALYZE, timing off) | ${median(server).toFixed(2)} |`);
  console.log(`\n${explained.map((r) => r['QUERY PLAN']).join('\n')}`);
}
await client.end();
