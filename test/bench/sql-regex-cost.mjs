// What a regex-style filter costs when PostgreSQL's own regex engine evaluates it, against RE2 in
// this process. PostgreSQL's engine gives no linear-time guarantee: some patterns RE2 answers in
// linear time cost PostgreSQL seconds per statement, or fail to compile. On PGlite, over 2,000
// and 20,000 forwarding rules, side by side in one run:
//
// - pushed down: the statement the planner emits for a pattern it translates, with the hostile
//   pattern's PostgreSQL spelling put in its parameter (a `run` that swaps it), walked through
//   listFromSql like any list: what the planner did before it refused these patterns;
// - listkit: listFromSql as it plans the pattern now (pushed down, or RE2 in the residual with
//   the scan budget; the plan is printed);
// - in-memory: a Collection over the same rules.
// Each cell is the time to walk every page of 500 (ms) and, for SQL, the statements it took.
//
// Then a sweep: how PGlite's statement time (one `~` over a column, count(*)) grows with a
// pattern's expanded size (the planner's measure, see regex-translation.ts), for the families
// that cost it most, beside fetching the same column and full-matching with re2js.
//
// The peer in the same run is RE2 in memory. A benchmark, not a test: it prints tables and never
// fails on a figure. Knobs: BENCH_REGEX_SIZES (default "2000,20000"), BENCH_REGEX_SWEEP (expanded
// sizes, default "16,32,64,128"; "" skips the sweep), BENCH_REGEX_SWEEP_ROWS (default 20000),
// BENCH_REGEX_DEADLINE_MS (a walk stops after this long, default 20000).
import { PGlite } from '@electric-sql/pglite';
import {
  Collection,
  compileFilter,
  PageTokenCodec,
  parseOrderBy,
  re2jsEngine,
} from '@listkit/query';
import {
  listFromSql,
  MAX_PUSHDOWN_REGEX_SIZE,
  planListQuery,
  regexPushdownSize,
  sqlTable,
  suggestIndexes,
  translateRegex,
} from '@listkit/query/sql';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';

const SIZES = (process.env.BENCH_REGEX_SIZES ?? '2000,20000').split(',').map(Number);
const SWEEP = (process.env.BENCH_REGEX_SWEEP ?? '16,32,64,128')
  .split(',')
  .filter((s) => s !== '')
  .map(Number);
const SWEEP_ROWS = Number(process.env.BENCH_REGEX_SWEEP_ROWS ?? 20000);
const PAGE = 500;
const DEADLINE_MS = Number(process.env.BENCH_REGEX_DEADLINE_MS ?? 20_000);
const FIELD = 'description';

const now = () => performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const short = (s) => (s.length > 24 ? `${s.slice(0, 20)}… (${s.length} chars)` : s);

// Each hostile pattern with its PostgreSQL spelling, written as the translator used to write it
// (`.` as `[^\n]`, anchored, under COLLATE "C"). The ordinary patterns are for scale.
const dots = '.*'.repeat(4000);
const CASES = [
  ['(.?){200}.{200}', '^(?:(?:[^\\n]?){200}[^\\n]{200})$'],
  ['(.?){100}', '^(?:(?:[^\\n]?){100})$'],
  [dots, `^(?:${'[^\\n]*'.repeat(4000)})$`],
  ['(a*)*b', '^(?:(?:a*)*b)$'],
  ['web frontend for .*', translateRegex('web frontend for .*')],
  ['[a-z]+ frontend for (prod|dev)', translateRegex('[a-z]+ frontend for (prod|dev)')],
];

// A pattern the planner translates; its parameter is swapped for the hostile spelling.
const STAND_IN = 'zz-stand-in';
const STAND_IN_SQL = translateRegex(STAND_IN);

async function openTable(rules) {
  const db = await PGlite.create();
  const table = sqlTable(forwardingRuleSchema, { table: 'rules', required: ['creationTimestamp'] });
  await db.exec(table.createTable());
  for (let at = 0; at < rules.length; at += 500) {
    const batch = rules.slice(at, at + 500);
    const width = table.insertColumns.length;
    const values = batch.map(
      (_, r) => `(${table.insertColumns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`,
    );
    await db.query(
      `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES ${values.join(', ')}`,
      batch.flatMap((rule) => table.row(rule)),
    );
  }
  for (const ddl of suggestIndexes(table, { orderings: forwardingRuleSchema.orderings })) {
    await db.exec(ddl).catch(() => undefined); // pg_trgm may be absent
  }
  return { db, table };
}

/** A SqlRunner on PGlite; `swap` replaces one parameter value on the way (the forced plan). */
const runner = (db, swap) => (statements) => {
  const counted = statements.length - 1; // the settings statement is not a list statement
  runner.statements += counted;
  return db.transaction(async (tx) => {
    let rows = [];
    for (const s of statements) {
      const params = s.params.map((p) => (swap && p === swap[0] ? swap[1] : p));
      rows = (await tx.query(s.text, params)).rows;
    }
    return rows;
  });
};
runner.statements = 0;

/**
 * Walks every page; returns ms, items and statements, or the error's message. A walk that is
 * still going after DEADLINE_MS stops there (`stopped`): the pushed-down walks of the hostile
 * patterns over 20,000 rows take minutes.
 */
async function walkOnce(list) {
  runner.statements = 0;
  const start = now();
  let items = 0;
  let pageToken;
  try {
    do {
      const page = await list({ filter: undefined, pageSize: PAGE, pageToken });
      items += page.items.length;
      pageToken = page.nextPageToken;
      if (pageToken && now() - start > DEADLINE_MS)
        return { ms: now() - start, items, statements: runner.statements, stopped: true };
    } while (pageToken);
  } catch (error) {
    const message = error.message.replace(/^invalid regular expression: /, '');
    return { error: message.replace(/\s+/g, ' ').slice(0, 50), ms: now() - start };
  }
  return { ms: now() - start, items, statements: runner.statements };
}

/** The median of 3 walks when one takes under a second (the first warms caches), else one. */
async function walk(list) {
  const first = await walkOnce(list);
  if (first.error || first.ms > 1000) return first;
  const runs = [await walkOnce(list), await walkOnce(list), await walkOnce(list)];
  return runs.sort((a, b) => a.ms - b.ms)[1];
}

const codec = await PageTokenCodec.create();
const rows = [];
for (const size of SIZES) {
  const rules = sampleForwardingRules(size);
  const { db, table } = await openTable(rules);
  const collection = new Collection(forwardingRuleSchema, { pageTokens: codec });
  for (const rule of rules) collection.put(rule);
  const options = { table, pageTokens: codec, statementTimeoutMs: 600_000 };
  for (const [pattern, spelling] of CASES) {
    const filter = `${FIELD} eq "${pattern}"`;
    const plan = planListQuery(table, {
      filter: compileFilter(filter, forwardingRuleSchema),
      order: parseOrderBy('', forwardingRuleSchema),
      pageSize: PAGE,
    });
    const forced = spelling
      ? await walk((r) =>
          listFromSql(
            { ...r, filter: `${FIELD} eq "${STAND_IN}"` },
            { ...options, run: runner(db, [STAND_IN_SQL, spelling]) },
          ),
        )
      : undefined;
    const listkit = await walk((r) =>
      listFromSql({ ...r, filter }, { ...options, run: runner(db) }),
    );
    const memory = await walk((r) => collection.list({ ...r, filter }));
    rows.push({ size, pattern, plan, forced, listkit, memory });
  }
  await db.close();
  collection.clear();
}

const cell = (r) =>
  r === undefined
    ? '—'
    : r.error
      ? `error: ${r.error} (${fmt(r.ms)} ms)`
      : `${r.stopped ? '> ' : ''}${fmt(r.ms)}${r.statements ? ` (${r.statements} st.${r.stopped ? ', stopped' : ''})` : ''}`;
console.log(
  `\n### Regex filters on PGlite: ms to walk every page of ${PAGE} (\`${FIELD} eq "…"\`)\n`,
);
console.log(
  '| rows | pattern | expanded size | listkit plan | pushed down | listkit | in-memory | pushed down / listkit |',
);
console.log('|---:|:---|---:|:---|---:|---:|---:|---:|');
for (const r of rows) {
  const ratio =
    r.forced && !r.forced.error && !r.listkit.error
      ? `${r.forced.stopped ? '> ' : ''}${(r.forced.ms / r.listkit.ms).toFixed(1)}x`
      : '—';
  const size = regexPushdownSize(r.pattern);
  console.log(
    `| ${r.size} | \`${short(r.pattern)}\` | ${size === undefined ? 'refused' : size} | ${r.plan.exact ? 'pushed down' : `residual (LIMIT ${r.plan.limit})`} | ${cell(r.forced)} | ${cell(r.listkit)} | ${cell(r.memory)} | ${ratio} |`,
  );
}

if (SWEEP.length > 0) {
  const values = sampleForwardingRules(SWEEP_ROWS).map((rule) => rule.name);
  const db = await PGlite.create();
  await db.exec('CREATE TABLE t (v text)');
  await db.query('INSERT INTO t SELECT unnest($1::text[])', [values]);
  const families = [
    ['`.{N}`', (n) => `.{${n}}`],
    ['`(ab){N/2}`', (n) => `(ab){${n / 2}}`],
    ['`a?` × N/2', (n) => 'a?'.repeat(n / 2)],
    ['`.?` × N/2', (n) => '.?'.repeat(n / 2)],
    ['`.*` × N/2', (n) => '.*'.repeat(n / 2)],
    ['`.{0,N}`', (n) => `.{0,${n}}`],
  ];
  const time = async (work) => {
    const times = [];
    for (let i = 0; i < 3; i++) {
      const start = now();
      await work();
      times.push(now() - start);
    }
    return median(times);
  };
  const fetchAll = await time(() => db.query('SELECT v FROM t'));
  console.log(
    `\n### PGlite statement time by expanded size (ms, ${SWEEP_ROWS} rule names, mean ${(values.join('').length / values.length).toFixed(0)} chars; median of 3)\n`,
  );
  console.log(
    `Fetching the column alone: ${fmt(fetchAll)} ms. The planner pushes down sizes up to ${MAX_PUSHDOWN_REGEX_SIZE}.\n`,
  );
  console.log(`| family | ${SWEEP.map((n) => `N = ${n}`).join(' | ')} |`);
  console.log(`|:---|${SWEEP.map(() => '---:').join('|')}|`);
  for (const [label, make] of families) {
    const cells = [];
    for (const n of SWEEP) {
      const pattern = make(n);
      // Counts over 255 are refused anyway (PostgreSQL's limit).
      const sql =
        /\{(\d+)/.test(pattern) && Number(/\{(?:0,)?(\d+)/.exec(pattern)[1]) > 255
          ? undefined
          : `^(?:${pattern.replaceAll('.', '[^\\n]')})$`;
      if (!sql) {
        cells.push('—');
        continue;
      }
      const pg = await time(() =>
        db.query('SELECT count(*) FROM t WHERE v COLLATE "C" ~ $1', [sql]),
      );
      const re2 = await time(async () => {
        const { rows: all } = await db.query('SELECT v FROM t');
        const re = re2jsEngine.compile(pattern);
        for (const row of all) re.fullMatch(row.v);
      });
      cells.push(`${fmt(pg)} / ${fmt(re2)}`);
    }
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  }
  console.log('\nEach cell: PGlite `~` / fetching the column and full-matching with re2js.');
  await db.close();
}
