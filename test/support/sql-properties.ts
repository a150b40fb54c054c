// The SQL planner's differential properties against the in-memory engine: random schema-shaped
// resources, random filters in both styles, random orderings and page sizes; every page listed
// through SQL must equal the in-memory Collection's page. test/sql-differential.test.ts runs them
// with each engine's bare runner, test/sql-builders.test.ts with each query builder's.
import {
  Collection,
  defineSchema,
  ListkitError,
  type ListPage,
  type ListRequest,
  PageTokenCodec,
  t,
} from '@listkit/query';
import {
  listFromSql,
  type SqlDialectName,
  type SqlRunner,
  type SqlTable,
  sqlTable,
  suggestIndexes,
} from '@listkit/query/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestDatabase } from './sql-databases.js';

/**
 * How the properties list from SQL: by default the database's own runners (`run`, and every
 * other page `runOneQuery`); a query builder gives one runner over the same database.
 */
export type RunnerOf = (db: TestDatabase, table: SqlTable) => SqlRunner;

const STATES = ['UP', 'DOWN', 'DRAINING'] as const;

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true }),
    description: t.string({ searchable: true }),
    // Searchable non-strings: bare values search their JSON text when it is a string.
    size: t.int64({ searchable: true }),
    ratio: t.double(),
    enabled: t.bool(),
    state: t.enum(STATES),
    created: t.timestamp({ searchable: true }),
    ttl: t.duration(),
    labels: t.map(t.string()),
    counts: t.map(t.int64()),
    tags: t.repeated(t.string()),
    sched: t.message({
      zone: t.string(),
      restart: t.bool(),
      tier: t.enum(['GOLD', 'SILVER']),
      at: t.timestamp(),
      retries: t.int64(),
    }),
    items: t.repeated(t.message({ id: t.string(), n: t.int64() })),
  },
});

const ORDERINGS = [
  '',
  'name desc',
  'created desc',
  'created',
  'size, name desc',
  'state desc',
  'ratio',
  'enabled desc, created',
  'sched.zone desc',
  'sched.at',
  'ttl desc',
  'description, sched.tier desc',
  'sched.retries',
];

// ---------------------------------------------------------------------------------------------
// Resources: few distinct values, so that filters and sort keys collide often.

const CHARS = ['a', 'b', 'A', '-', '%', '_', '\\', '*', "'", '\n', ' ', 'é', '😀', '0'];
const text = (max: number) => fc.string({ unit: fc.constantFrom(...CHARS), maxLength: max });

const INT64S = [
  '0',
  '1',
  '-3',
  '42',
  '9007199254740993',
  '-9223372036854775808',
  '9223372036854775807',
];
const TIMESTAMPS = [
  '2024-01-01T00:00:00Z',
  '2023-12-31T19:00:00-05:00',
  '2024-01-01T00:00:00.000000001Z',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.5Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
];
const DURATIONS = ['0s', '1.5s', '-2s', '20s', '0.000000001s', '315576000000s'];

const int64Arb = fc.oneof(fc.constantFrom(...INT64S), fc.integer({ min: -3, max: 5 }));

const resourceArb = fc.record(
  {
    name: fc.string({
      unit: fc.constantFrom('a', 'b', '-', '%', '_', 'é', '😀', 'Z'),
      minLength: 1,
      maxLength: 4,
    }),
    description: text(5),
    size: int64Arb,
    ratio: fc.constantFrom(0, 1.5, -2, 1e-9, 3, 1e300),
    enabled: fc.boolean(),
    state: fc.constantFrom(...STATES),
    created: fc.constantFrom(...TIMESTAMPS),
    ttl: fc.constantFrom(...DURATIONS),
    labels: fc.dictionary(
      fc.constantFrom('env', 'team', 'a%'),
      fc.constantFrom('prod', 'dev', '', 'p_d', '0'),
    ),
    counts: fc.dictionary(fc.constantFrom('a', 'b'), int64Arb),
    tags: fc.array(fc.constantFrom('web', 'db', '', 'w%b', 'WEB'), { maxLength: 3 }),
    sched: fc.record(
      {
        zone: fc.constantFrom('us-a', 'us-b', 'eu', ''),
        restart: fc.boolean(),
        tier: fc.constantFrom('GOLD', 'SILVER'),
        at: fc.constantFrom(...TIMESTAMPS),
        retries: int64Arb,
      },
      { requiredKeys: [] },
    ),
    items: fc.array(
      fc.record({ id: fc.constantFrom('x', 'y', ''), n: int64Arb }, { requiredKeys: [] }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: ['name'] },
);

const resourcesArb = fc.uniqueArray(resourceArb, { selector: (r) => r.name, maxLength: 30 });

// ---------------------------------------------------------------------------------------------
// AIP-160 filters.

const quote = (s: string, starAsLiteral = false) =>
  `"${[...s]
    .map((c) =>
      c === '\\'
        ? '\\\\'
        : c === '"'
          ? '\\"'
          : c === '\n'
            ? '\\n'
            : c === '*' && starAsLiteral
              ? '\\*'
              : c,
    )
    .join('')}"`;

const stringValue = fc.oneof(
  text(3),
  fc.constantFrom(
    'a*',
    '*b',
    '*',
    '**',
    'a*b',
    '%',
    '_',
    'a\\',
    '\u0000',
    'prod',
    'us-*',
    'p_d',
    'w%b',
    'web',
    '42',
    '2024-01',
    '9',
  ),
);
const stringLiteral = fc.tuple(stringValue, fc.boolean()).map(([s, literal]) => quote(s, literal));

const leafArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        'name',
        'description',
        'sched.zone',
        'labels.env',
        'labels.team',
        'items.id',
        'tags',
      ),
      fc.constantFrom('=', '!=', ':', '<', '>='),
      stringLiteral,
    )
    .map(([f, op, v]) => (f === 'items.id' || f === 'tags' ? `${f}:${v}` : `${f} ${op} ${v}`)),
  fc
    .tuple(
      fc.constantFrom('size', 'sched.retries', 'counts.a', 'items.n'),
      fc.constantFrom('=', '!=', '<', '<=', '>', '>=', ':'),
      fc.constantFrom(...INT64S, '5', '-1'),
    )
    .map(([f, op, v]) => (f === 'items.n' ? `${f}:${v}` : `${f} ${op} ${v}`)),
  fc
    .tuple(fc.constantFrom('=', '!=', '<', '>='), fc.constantFrom('0', '1.5', '-2', '3', '1e-9'))
    .map(([op, v]) => `ratio ${op} ${v}`),
  fc
    .tuple(fc.constantFrom('enabled', 'sched.restart'), fc.constantFrom('=', '!='), fc.boolean())
    .map(([f, op, v]) => `${f} ${op} ${v}`),
  fc
    .tuple(fc.constantFrom('=', '!=', ':'), fc.constantFrom(...STATES))
    .map(([op, v]) => `state ${op} ${v}`),
  fc
    .tuple(fc.constantFrom('=', '!='), fc.constantFrom('GOLD', 'SILVER'))
    .map(([op, v]) => `sched.tier ${op} ${v}`),
  fc
    .tuple(
      fc.constantFrom('created', 'sched.at'),
      fc.constantFrom('=', '!=', '<', '>='),
      fc.constantFrom(...TIMESTAMPS),
    )
    .map(([f, op, v]) => `${f} ${op} ${quote(v)}`),
  fc
    .tuple(fc.constantFrom('=', '!=', '<', '>='), fc.constantFrom(...DURATIONS))
    .map(([op, v]) => `ttl ${op} ${quote(v)}`),
  fc
    .constantFrom(
      'name',
      'description',
      'size',
      'ratio',
      'enabled',
      'state',
      'created',
      'ttl',
      'labels',
      'counts',
      'tags',
      'sched',
      'items',
      'labels.env',
      'sched.zone',
      'sched.tier',
      'sched.at',
      'counts.b',
    )
    .map((f) => `${f}:*`),
  fc.constantFrom('env', 'team', 'a%', 'zzz').map((k) => `labels:${quote(k)}`),
  stringValue.filter((s) => s !== '').map((s) => quote(s)),
);

const aipArb: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a}) AND (${b})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} OR ${b}`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([a, b, c]) => `${a} AND (${b} OR ${c})`),
    tie('expr').map((a) => `NOT (${a})`),
    leafArb.map((a) => `-${a}`),
  ),
})).expr;

// Regex style: patterns inside and outside the subset PostgreSQL shares with RE2.
const PATTERNS = [
  'a.*',
  '.*b',
  '[a-c]+',
  '(a|b)-.*',
  '\\d+',
  '-?\\d+',
  '9.*',
  '(?i)a.*',
  'a\\b.*',
  '.*%.*',
  'a{1,2}.*',
  'a{300}',
  '[^a]*',
  '\\pL+',
  '.',
  '.*',
  'us-.',
  'us-(a|b)',
  'p_d',
  'é.*',
  '😀',
  '[%_\\\\]+.*',
  'prod',
  'x\\.y',
  '.*\\n.*',
  'UP|DOWN',
  'D.*',
  '(?s).*',
  'true',
  'fals.',
  'G.*',
  '[[:alpha:]]+',
  '\\w+',
  '\\s*',
  'a*?',
  '\\Qa.b\\E',
  '.*b\\b.*',
  'a.*(?i)b',
  '.*%\\b_.*',
  '.*a-\\Bb.*',
  '\\-?(?i:us)-.*',
  'web-.*',
  'us-a|eu',
];
const regexArb = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'name',
        'description',
        'size',
        'enabled',
        'state',
        'sched.zone',
        'sched.tier',
        'tags',
        'ratio',
        'created',
      ),
      fc.constantFrom('eq', 'ne'),
      fc.constantFrom(...PATTERNS),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((terms) => terms.map(([f, op, p]) => `(${f} ${op} ${quote(p)})`).join(' '));

const requestArb = fc.record({
  filter: fc.oneof(aipArb, regexArb, fc.constant('')),
  orderBy: fc.constantFrom(...ORDERINGS),
  pageSize: fc.integer({ min: 1, max: 12 }),
});

// ---------------------------------------------------------------------------------------------

const codec = await PageTokenCodec.create();
export const RUNS = Number(process.env.LISTKIT_SQL_RUNS ?? 150);

async function walk<T>(list: (r: ListRequest) => Promise<ListPage<T>>, request: ListRequest) {
  const pages: ListPage<T>[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list({ ...request, pageToken });
    pages.push(page);
    pageToken = page.nextPageToken;
    if (pages.length > 200) throw new Error('walk did not end');
  } while (pageToken);
  return pages;
}

/** Replaces the table's rows with these resources. */
async function load(db: TestDatabase, table: SqlTable, resources: object[]) {
  if (db.load) return db.load(table, resources);
  await db.exec(`DELETE FROM ${table.name}`);
  if (resources.length === 0) return;
  const width = table.insertColumns.length;
  const values = resources.map(
    (_, r) => `(${table.insertColumns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`,
  );
  await db.query(
    `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES ${values.join(', ')}`,
    resources.flatMap((r) => table.row(r)),
  );
}

/**
 * The document layout both ways: the resource as `jsonb` (the default) and as `json`
 * (`documentType: 'json'`, read without conversion; filters cast it). Each property run picks one.
 */
const layouts = (name: string, dialect: SqlDialectName): SqlTable[] =>
  dialect === 'postgres'
    ? [
        sqlTable(schema, { table: `${name}_${process.pid}` }),
        sqlTable(schema, { table: `${name}_json_${process.pid}`, documentType: 'json' }),
      ]
    : // One document type (JSON text) where the engine has one.
      [0, 1].map((i) => sqlTable(schema, { table: `${name}_${i}_${process.pid}`, dialect }));
const layoutArb = fc.constantFrom(0, 1);

async function createTables(db: TestDatabase, tables: SqlTable[], indexes: boolean) {
  for (const table of tables) {
    await db.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db.exec(table.createTable());
    if (indexes)
      for (const ddl of suggestIndexes(table, { orderings: ORDERINGS })) await db.exec(ddl);
  }
}

async function dropTables(db: TestDatabase | undefined, tables: SqlTable[]) {
  for (const table of tables) await db?.exec(`DROP TABLE IF EXISTS ${table.name}`);
  await db?.close();
}

export function differential(
  open: () => Promise<TestDatabase>,
  runs: number,
  dialect: SqlDialectName = 'postgres',
  runnerOf?: RunnerOf,
) {
  let db: TestDatabase;
  const tables = layouts('listkit_diff', dialect);
  beforeAll(async () => {
    db = await open();
    await createTables(db, tables, true);
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(() => dropTables(db, tables));

  it('lists every page exactly as the in-memory Collection does', async () => {
    let compared = 0;
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(resourcesArb, requestArb, layoutArb, async (resources, request, layout) => {
        const table = tables[layout]!;
        const collection = new Collection<object>(schema, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        let expected: ListPage<object>[];
        try {
          expected = await walk((r) => collection.list(r), request);
        } catch (error) {
          if (!(error instanceof ListkitError)) throw error;
          invalid++; // an invalid filter: nothing to compare
          return;
        }
        await load(db, table, resources);
        // Every other run sends each page as one simple query (simpleQueryText) instead.
        const run = runnerOf ? runnerOf(db, table) : compared % 2 === 0 ? db.run : db.runOneQuery;
        const actual = await walk(
          (r) => listFromSql<object>(r, { table, pageTokens: codec, run }),
          request,
        );
        compared++;
        expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        expect(actual.map((p) => p.nextPageToken !== undefined)).toEqual(
          expected.map((p) => p.nextPageToken !== undefined),
        );
      }),
      { numRuns: runs },
    );
    // The generators must mostly produce valid filters, or this test would compare little.
    expect(compared).toBeGreaterThan(invalid * 3);
  }, 600_000);

  it('passes page tokens between SQL and the Collection both ways', async () => {
    await fc.assert(
      fc.asyncProperty(
        resourcesArb,
        requestArb,
        layoutArb,
        fc.boolean(),
        async (resources, request, layout, sqlFirst) => {
          const table = tables[layout]!;
          const collection = new Collection<object>(schema, { pageTokens: codec });
          for (const r of resources) collection.put(r);
          let expected: ListPage<object>[];
          try {
            expected = await walk((r) => collection.list(r), request);
          } catch (error) {
            if (error instanceof ListkitError) return;
            throw error;
          }
          await load(db, table, resources);
          // Each page continues from the other side's token.
          let turn = sqlFirst ? 0 : 1;
          const actual = await walk((r) => {
            turn++;
            return turn % 2 === 1
              ? listFromSql<object>(r, {
                  table,
                  pageTokens: codec,
                  run: runnerOf?.(db, table) ?? db.run,
                })
              : collection.list(r);
          }, request);
          expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        },
      ),
      { numRuns: Math.ceil(runs / 3) },
    );
  }, 600_000);

  it('with a small scan budget, short pages still walk to the same items', async () => {
    await fc.assert(
      fc.asyncProperty(resourcesArb, requestArb, layoutArb, async (resources, request, layout) => {
        const table = tables[layout]!;
        const collection = new Collection<object>(schema, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        let expected: ListPage<object>[];
        try {
          expected = await walk((r) => collection.list(r), request);
        } catch (error) {
          if (error instanceof ListkitError) return;
          throw error;
        }
        await load(db, table, resources);
        const actual = await walk(
          (r) =>
            listFromSql<object>(r, {
              table,
              pageTokens: codec,
              run: runnerOf?.(db, table) ?? db.run,
              scanBudget: 1,
            }),
          request,
        );
        for (const page of actual) expect(page.items.length).toBeLessThanOrEqual(request.pageSize);
        expect(actual.flatMap((p) => p.items)).toEqual(expected.flatMap((p) => p.items));
      }),
      { numRuns: Math.ceil(runs / 3) },
    );
  }, 600_000);
}

// Hostile request text in every literal position: it must only ever travel as a parameter.
const HOSTILE_CORE = "'); DROP TABLE listkit; --";
const hostileArb = fc
  .string({
    unit: fc.constantFrom("'", '"', ';', '-', '\\', '%', '_', '*', '$1', ')', '/*', "E'", 'a', ' '),
    maxLength: 6,
  })
  .map((noise) => `${noise}${HOSTILE_CORE}${noise}`);
const hostileFilterArb = fc.tuple(
  hostileArb,
  fc.constantFrom(
    (h: string) => `name = ${quote(h)}`,
    (h: string) => `description != ${quote(h)}`,
    (h: string) => `name < ${quote(h)}`,
    (h: string) => `description:${quote(h)}`,
    (h: string) => `labels:${quote(h)}`,
    (h: string) => `labels.env = ${quote(h)}`,
    (h: string) => `NOT labels.team = ${quote(`*${h}*`)}`,
    (h: string) => `tags:${quote(h)}`,
    (h: string) => `items.id:${quote(h)}`,
    (h: string) => quote(h),
    (h: string) => `(name eq ${quote(h.replace(/[\\()*$]/g, '.'))})`,
    (h: string) => `(description ne ${quote(`${h.replace(/[^a-z ]/g, '')}\\pL*`)})`,
  ),
);

export function injection(
  open: () => Promise<TestDatabase>,
  runs: number,
  dialect: SqlDialectName = 'postgres',
) {
  let db: TestDatabase;
  const tables = layouts('listkit_hostile', dialect);
  beforeAll(async () => {
    db = await open();
    await createTables(db, tables, false);
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(() => dropTables(db, tables));

  it('never puts request text into SQL text, and still answers as the in-memory engine', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        resourcesArb,
        hostileFilterArb,
        fc.boolean(),
        layoutArb,
        async (resources, [hostile, make], store, layout) => {
          const table = tables[layout]!;
          // Half the time a resource holds the hostile text itself, so that equality can match.
          const data =
            store && resources[0]
              ? [
                  { ...resources[0], description: hostile, labels: { env: hostile } },
                  ...resources.slice(1),
                ]
              : resources;
          const request = { filter: make(hostile), pageSize: 5 };
          const collection = new Collection<object>(schema, { pageTokens: codec });
          for (const r of data) collection.put(r);
          let expected: ListPage<object>[];
          try {
            expected = await walk((r) => collection.list(r), request);
          } catch (error) {
            if (error instanceof ListkitError) return;
            throw error;
          }
          await load(db, table, data);
          const texts: string[] = [];
          const actual = await walk(
            (r) =>
              listFromSql<object>(r, {
                table,
                pageTokens: codec,
                run: (statements) => {
                  texts.push(...statements.map((s) => s.text));
                  return db.run(statements);
                },
              }),
            request,
          );
          compared++;
          for (const text of texts) {
            expect(text).not.toContain(hostile);
            expect(text).not.toContain('DROP TABLE');
          }
          expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
          // As one simple query the text travels as escaped constants: the same pages, and the
          // hostile text is only ever inside a constant (the table is still there to list).
          const oneQuery = await walk(
            (r) => listFromSql<object>(r, { table, pageTokens: codec, run: db.runOneQuery }),
            request,
          );
          expect(oneQuery.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        },
      ),
      { numRuns: runs },
    );
    expect(compared).toBeGreaterThan(runs / 2);
  }, 600_000);
}
