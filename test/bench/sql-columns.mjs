// The cost of a table of your own (issue 22) against listkit's document layout: the same books
// (BENCH_COLUMNS_ROWS, default 100,000) in both layouts, the same pages listed through
// listFromSql — unfiltered by key, a filtered page, an ordered page, a filtered and ordered
// page — on PGlite, and on PostgreSQL when LISTKIT_PG_URL is set. ms per page of 500 (median of
// consecutive keyset pages after the first, over three rounds). Prints; never asserts; writes
// no tracked file (PGlite in memory; on a server, tables bench_cols_* are dropped at the end).
import { PGlite } from '@electric-sql/pglite';
import { defineSchema, PageTokenCodec, t } from '@listkit/query';
import { listFromSql, sqlTable, suggestIndexes } from '@listkit/query/sql';
import pg from 'pg';

const ROWS = Number(process.env.BENCH_COLUMNS_ROWS ?? 100_000);
const PAGES = Number(process.env.BENCH_COLUMNS_PAGES ?? 12);
const PAGE = 500;
const BATCH = 5000;
const GENRES = ['FICTION', 'HISTORY', 'POETRY', 'SCIENCE'];

const schema = defineSchema({
  key: 'id',
  fields: {
    id: t.int64(),
    title: t.string({ searchable: true }),
    author: t.string(),
    published: t.timestamp(),
    pages: t.int64(),
    rating: t.double(),
    genre: t.enum(GENRES),
    tags: t.repeated(t.string()),
    labels: t.map(t.string()),
    inPrint: t.bool(),
  },
});
const ORDERINGS = ['', 'published desc', 'rating desc'];
const REQUIRED = ['published', 'genre'];

const now = () => process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** Deterministic books: a linear congruential generator, microsecond timestamps. */
function books(n) {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 12;
  };
  const out = [];
  const base = Date.UTC(2000, 0, 1);
  for (let i = 1; i <= n; i++) {
    const at = new Date(base + (next() % 700_000_000) * 1000).toISOString().slice(0, 19);
    const tags = ['web', 'db', 'ml', 'ops'].filter(() => next() % 3 === 0);
    out.push({
      id: String(i),
      title: `title-${(next() % 1_000_000).toString(36)}-${i}`,
      author: `author-${next() % 2000}`,
      published: `${at}.${String(next() % 1_000_000).padStart(6, '0')}Z`,
      pages: String(50 + (next() % 900)),
      rating: (next() % 5000) / 1000,
      genre: GENRES[next() % GENRES.length],
      tags,
      labels: { env: next() % 4 === 0 ? 'prod' : 'dev', team: `t${next() % 20}` },
      inPrint: next() % 2 === 0,
    });
  }
  return out;
}

const document = (name) => sqlTable(schema, { table: name, required: REQUIRED });
const own = (name) =>
  sqlTable(schema, {
    table: name,
    document: false,
    required: ['title', 'author', 'published', 'pages', 'rating', 'genre', 'inPrint'],
    columns: {
      title: 'title',
      author: { type: 'varchar' },
      published: { type: 'timestamptz' },
      pages: { type: 'integer' },
      rating: 'rating',
      genre: { type: 'enum' },
      tags: 'tags',
      labels: 'labels',
      inPrint: 'in_print',
    },
  });

const CASES = [
  { label: 'unfiltered, by id', filter: '', orderBy: '' },
  { label: 'labels.env = "prod" (GIN), by id', filter: 'labels.env = "prod"', orderBy: '' },
  { label: 'published desc', filter: '', orderBy: 'published desc' },
  {
    label: 'genre = POETRY AND pages > 500, rating desc',
    filter: 'genre = POETRY AND pages > 500',
    orderBy: 'rating desc',
  },
];

async function perPage(list, request) {
  const times = [];
  let pageToken;
  for (let i = 0; i < PAGES; i++) {
    const start = now();
    const page = await list({ ...request, pageSize: PAGE, pageToken });
    times.push(ms(start, now()));
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
  return median(times.length > 1 ? times.slice(1) : times);
}

async function bench(db) {
  const suffix = `${process.pid}`;
  const doc = document(`bench_cols_doc_${suffix}`);
  const mine = own(`bench_cols_own_${suffix}`);
  const genreType = `bench_cols_genre_${suffix}`;
  const rows = books(ROWS);
  let start = now();
  await db.exec(doc.createTable());
  const types = [
    'jsonb',
    ...doc.columns.map((c) => (c.sqlType === 'double precision' ? 'float8' : c.sqlType)),
  ];
  const insertDoc = `INSERT INTO ${doc.name} (${doc.insertColumns.join(', ')}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  for (let at = 0; at < rows.length; at += BATCH) {
    const columns = types.map(() => []);
    for (const book of rows.slice(at, at + BATCH)) {
      for (const [i, v] of doc.row(book).entries()) columns[i].push(v);
    }
    await db.query(insertDoc, columns);
  }
  const loadDoc = ms(start, now()) / 1000;
  start = now();
  await db.exec(`CREATE TYPE ${genreType} AS ENUM ('SCIENCE', 'POETRY', 'FICTION', 'HISTORY')`);
  await db.exec(`CREATE TABLE ${mine.name} (
    id bigint PRIMARY KEY, title text NOT NULL, author varchar(100) NOT NULL,
    published timestamptz NOT NULL, pages integer NOT NULL, rating double precision NOT NULL,
    genre ${genreType} NOT NULL, tags jsonb, labels jsonb, in_print boolean NOT NULL)`);
  const insertOwn = `INSERT INTO ${mine.name} (id, title, author, published, pages, rating, genre, tags, labels, in_print)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::varchar[], $4::timestamptz[], $5::integer[], $6::float8[], $7::text[]::${genreType}[], $8::jsonb[], $9::jsonb[], $10::boolean[])`;
  for (let at = 0; at < rows.length; at += BATCH) {
    const columns = Array.from({ length: 10 }, () => []);
    for (const b of rows.slice(at, at + BATCH)) {
      const values = [b.id, b.title, b.author, b.published, b.pages, String(b.rating), b.genre];
      values.push(JSON.stringify(b.tags), JSON.stringify(b.labels), String(b.inPrint));
      for (const [i, v] of values.entries()) columns[i].push(v);
    }
    await db.query(insertOwn, columns);
  }
  const loadOwn = ms(start, now()) / 1000;
  for (const table of [doc, mine]) {
    for (const ddl of suggestIndexes(table, { orderings: ORDERINGS })) await db.exec(ddl);
    await db.exec(`ANALYZE ${table.name}`);
  }
  console.log(
    `${db.name}: loaded ${ROWS} rows in ${loadDoc.toFixed(1)} s (document) and ${loadOwn.toFixed(1)} s (columns)`,
  );
  const codec = await PageTokenCodec.create();
  const results = [];
  for (const c of CASES) {
    const d = [];
    const o = [];
    for (let round = 0; round < 3; round++) {
      d.push(
        await perPage((r) => listFromSql(r, { table: doc, pageTokens: codec, run: db.run }), c),
      );
      o.push(
        await perPage((r) => listFromSql(r, { table: mine, pageTokens: codec, run: db.run }), c),
      );
    }
    results.push({ label: c.label, document: median(d), columns: median(o) });
  }
  await db.exec(`DROP TABLE ${doc.name}`);
  await db.exec(`DROP TABLE ${mine.name}`);
  await db.exec(`DROP TYPE ${genreType}`);
  return results;
}

function pgliteDatabase(db) {
  return {
    name: 'PGlite',
    exec: async (text) => void (await db.exec(text)),
    query: (text, params) => db.query(text, params),
    run: (statements) =>
      db.transaction(async (tx) => {
        let rows = [];
        for (const s of statements) rows = (await tx.query(s.text, [...s.params])).rows;
        return rows;
      }),
  };
}

async function postgresDatabase(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    name: 'PostgreSQL',
    client,
    exec: async (text) => void (await client.query(text)),
    query: (text, params) => client.query(text, params),
    run: async (statements) => {
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
    },
  };
}

const all = [];
const pglite = await PGlite.create();
all.push(['PGlite', await bench(pgliteDatabase(pglite))]);
await pglite.close();
if (process.env.LISTKIT_PG_URL) {
  const db = await postgresDatabase(process.env.LISTKIT_PG_URL);
  all.push(['PostgreSQL', await bench(db)]);
  await db.client.end();
} else {
  console.log('PostgreSQL skipped: set LISTKIT_PG_URL (or run under .ci/with-postgres.sh)');
}

console.log(`\nms per page of ${PAGE}, ${ROWS} rows (document layout vs a table of your own)\n`);
console.log('| database | page | document | columns | columns / document |');
console.log('| -------- | ---- | -------: | ------: | -----------------: |');
for (const [name, results] of all) {
  for (const r of results) {
    console.log(
      `| ${name} | ${r.label} | ${fmt(r.document)} | ${fmt(r.columns)} | ${(r.columns / r.document).toFixed(2)} |`,
    );
  }
}
