// The planner over the less common shapes: maps of maps and of messages, lists of lists,
// messages two deep, timestamps inside maps. Whatever pushes down or stays residual, pages must
// equal the in-memory Collection's (PGlite, SQLite and a MariaDB server; the common shapes run on
// a PostgreSQL server too).
import {
  Collection,
  defineSchema,
  ListkitError,
  type ListPage,
  type ListRequest,
  PageTokenCodec,
  t,
} from '@listkit/query';
import { listFromSql, type SqlTable, sqlTable } from '@listkit/query/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mariadbSkipReason,
  openMariadb,
  openPglite,
  openSqlite,
  type TestDatabase,
} from '../support/sql-databases.js';

const schema = defineSchema({
  key: 'id',
  fields: {
    id: t.int64(),
    nested: t.map(t.map(t.string())),
    byZone: t.map(t.message({ size: t.int64(), tier: t.enum(['A', 'B']), on: t.bool() })),
    grid: t.repeated(t.repeated(t.string())),
    when: t.map(t.timestamp()),
    deep: t.message({
      inner: t.message({ name: t.string(), at: t.timestamp(), kind: t.enum(['X', 'Y']) }),
    }),
    scores: t.repeated(t.double()),
    flags: t.repeated(t.bool()),
  },
});

const small = fc.constantFrom('a', 'b', '', '0', 'a%');
const resourceArb = fc.record(
  {
    id: fc.integer({ min: -50, max: 50 }).map(String),
    nested: fc.dictionary(
      fc.constantFrom('x', 'y'),
      fc.dictionary(fc.constantFrom('k', 'l'), small),
    ),
    byZone: fc.dictionary(
      fc.constantFrom('z1', 'z2'),
      fc.record(
        {
          size: fc.constantFrom('0', '3', '-1'),
          tier: fc.constantFrom('A', 'B'),
          on: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    ),
    grid: fc.array(fc.array(small, { maxLength: 2 }), { maxLength: 2 }),
    when: fc.dictionary(
      fc.constantFrom('start', 'end'),
      fc.constantFrom('2024-01-01T00:00:00Z', '1999-12-31T23:59:59.999999999Z'),
    ),
    deep: fc.record(
      {
        inner: fc.record(
          {
            name: small,
            at: fc.constantFrom('2024-01-01T00:00:00Z', '2030-01-01T00:00:00Z'),
            kind: fc.constantFrom('X', 'Y'),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    scores: fc.array(fc.constantFrom(0, 1.5, -2), { maxLength: 3 }),
    flags: fc.array(fc.boolean(), { maxLength: 2 }),
  },
  { requiredKeys: ['id'] },
);

const FILTERS = [
  'nested.x.k = "a"',
  'nested.x:k',
  'nested:x',
  'nested.x.k:*',
  'NOT nested.y.l = "a"',
  'nested.x.k != "a"',
  'byZone.z1.size > 0',
  'NOT byZone.z1.tier = A',
  'byZone.z2.on = true',
  'byZone.z1:*',
  'byZone:z2',
  'byZone.z1.size:*',
  'grid:a',
  'grid:*',
  'when.start > "2000-01-01T00:00:00Z"',
  'NOT when.end < "2000-01-01T00:00:00Z"',
  'when:start',
  'deep.inner.name = "a*"',
  'deep.inner.at >= "2024-01-01T00:00:00Z"',
  'deep.inner.kind != Y',
  'NOT deep.inner.kind = X',
  'deep.inner:*',
  'deep:*',
  'deep.inner.name:*',
  'scores:1.5',
  'scores:*',
  'flags:true',
  'NOT flags:false',
  'id > 3',
  'id:*',
  '(deep.inner.kind eq "X|Y")',
  '(deep.inner.name ne "a.*")',
  '(grid eq "a")',
];
const filterArb = fc.oneof(
  fc.constantFrom(...FILTERS),
  fc
    .tuple(
      fc.constantFrom(...FILTERS.filter((f) => !f.startsWith('('))),
      fc.constantFrom(...FILTERS.filter((f) => !f.startsWith('('))),
      fc.constantFrom('AND', 'OR'),
    )
    .map(([a, b, op]) => `(${a}) ${op} NOT (${b})`),
);

const codec = await PageTokenCodec.create();

async function walk<T>(list: (r: ListRequest) => Promise<ListPage<T>>, request: ListRequest) {
  const items: T[][] = [];
  let pageToken: string | undefined;
  do {
    const page = await list({ ...request, pageToken });
    items.push(page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return items;
}

/** The property on one engine, over the tables it lays out (each run picks one). */
function exotic(open: () => Promise<TestDatabase>, tables: readonly SqlTable[]) {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await open();
    for (const table of tables) {
      await db.exec(`DROP TABLE IF EXISTS ${table.name}`);
      await db.exec(table.createTable());
    }
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    for (const table of tables) await db?.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db?.close();
  });

  it('lists maps of maps and of messages, lists of lists and deep messages as the in-memory engine', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(resourceArb, { selector: (r) => Number(r.id), maxLength: 20 }),
        filterArb,
        fc.constantFrom(
          '',
          'id desc',
          'deep.inner.at desc',
          'deep.inner.kind',
          'deep.inner.name desc',
        ),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(...tables),
        async (resources, filter, orderBy, pageSize, table) => {
          const request = { filter, orderBy, pageSize };
          const collection = new Collection<object>(schema, { pageTokens: codec });
          for (const r of resources) collection.put(r);
          let expected: object[][];
          try {
            expected = await walk((r) => collection.list(r), request);
          } catch (error) {
            if (error instanceof ListkitError) return;
            throw error;
          }
          await db.exec(`DELETE FROM ${table.name}`);
          for (const r of resources) {
            await db.query(
              `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES (${table.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
              table.row(r),
            );
          }
          const actual = await walk(
            (r) => listFromSql<object>(r, { table, pageTokens: codec, run: db.run }),
            request,
          );
          compared++;
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: Number(process.env.LISTKIT_SQL_RUNS ?? 150) },
    );
    expect(compared).toBeGreaterThan(50);
  }, 600_000);
}

describe('on PGlite', () => {
  // Both document layouts (jsonb, and json read unconverted and cast by filters).
  exotic(openPglite, [
    sqlTable(schema, { table: `listkit_exotic_${process.pid}` }),
    sqlTable(schema, { table: `listkit_exotic_json_${process.pid}`, documentType: 'json' }),
  ]);
});

describe('on SQLite', () => {
  exotic(openSqlite, [sqlTable(schema, { table: 'listkit_exotic', dialect: 'sqlite' })]);
});

const noMariadb = mariadbSkipReason();
describe.skipIf(noMariadb !== undefined)(
  `on a MariaDB server${noMariadb ? ` (skipped: ${noMariadb})` : ''}`,
  () => {
    exotic(openMariadb, [
      sqlTable(schema, { table: `listkit_exotic_${process.pid}`, dialect: 'mysql' }),
    ]);
  },
);
