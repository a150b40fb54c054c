// Regex patterns whose cost in PostgreSQL's regex engine has no bound stay in the residual, where
// RE2 decides in linear time: planned without `~`, and listed exactly as the in-memory engine
// lists them, on PGlite and on the configured server. Pushed down, `(.?){200}.{200}` took 14.6 s
// over 23,000 rules on PGlite and `.*` × 4000 failed with "regular expression is too complex".
import {
  Collection,
  compileFilter,
  type ListPage,
  PageTokenCodec,
  parseOrderBy,
} from '@listkit/query';
import { listFromSql, planListQuery, sqlTable } from '@listkit/query/sql';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPglite,
  openPostgres,
  postgresSkipReason,
  type TestDatabase,
} from '../support/sql-databases.js';

const ROWS = 3000;
// A few descriptions each hostile pattern matches, besides the sample's short ones.
const rules = sampleForwardingRules(ROWS).map((rule, i) =>
  i % 97 === 0
    ? { ...rule, description: 'x'.repeat(200 + (i % 5) * 40) }
    : i % 89 === 0
      ? { ...rule, description: `${'a'.repeat(i % 7)}b` }
      : rule,
);

const HOSTILE: [label: string, pattern: string][] = [
  ['(.?){200}.{200}', '(.?){200}.{200}'],
  ['(.?){100}', '(.?){100}'],
  ['.* × 4000', '.*'.repeat(4000)],
  ['(a*)*b', '(a*)*b'],
];
const ORDERINGS = ['', 'creationTimestamp desc'];
const codec = await PageTokenCodec.create();

async function walk(list: (pageToken?: string) => Promise<ListPage<object>>) {
  const pages: ListPage<object>[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list(pageToken);
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return pages;
}

function regexCost(open: () => Promise<TestDatabase>) {
  let db: TestDatabase;
  const table = sqlTable(forwardingRuleSchema, {
    table: `listkit_regex_cost_${process.pid}`,
    required: ['creationTimestamp'],
  });
  const collection = new Collection<object>(forwardingRuleSchema, { pageTokens: codec });
  for (const rule of rules) collection.put(rule);

  beforeAll(async () => {
    db = await open();
    await db.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db.exec(table.createTable());
    const width = table.insertColumns.length;
    for (let at = 0; at < rules.length; at += 500) {
      const batch = rules.slice(at, at + 500);
      const values = batch.map(
        (_, r) => `(${table.insertColumns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`,
      );
      await db.query(
        `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES ${values.join(', ')}`,
        batch.flatMap((rule) => table.row(rule)),
      );
    }
  }, 120_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db?.close();
  });

  it.each(HOSTILE)('plans description eq "%s" with the regex in the residual', (_, pattern) => {
    const plan = planListQuery(table, {
      filter: compileFilter(`description eq "${pattern}"`, forwardingRuleSchema),
      order: parseOrderBy('', forwardingRuleSchema),
      pageSize: 100,
    });
    expect(plan.exact).toBe(false);
    expect(plan.residual).toBeDefined();
    expect(plan.text).not.toContain(' ~ ');
    expect(plan.params).not.toContain(expect.stringContaining('{200}'));
  });

  it.each(HOSTILE)(
    'lists description eq "%s" page for page as in memory',
    async (_, pattern) => {
      const filter = `description eq "${pattern}"`;
      for (const orderBy of ORDERINGS) {
        const request = { filter, orderBy, pageSize: 500 };
        const expected = await walk((pageToken) => collection.list({ ...request, pageToken }));
        const actual = await walk((pageToken) =>
          listFromSql<object>(
            { ...request, pageToken },
            { table, pageTokens: codec, run: db.run, statementTimeoutMs: 60_000 },
          ),
        );
        expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        expect(actual.map((p) => p.nextPageToken !== undefined)).toEqual(
          expected.map((p) => p.nextPageToken !== undefined),
        );
        // The data makes every pattern match something, so the comparison is not vacuous.
        expect(expected.flatMap((p) => p.items).length).toBeGreaterThan(0);
      }
    },
    120_000,
  );
}

describe('hostile regexes on PGlite', () => {
  regexCost(openPglite);
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `hostile regexes on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    regexCost(openPostgres);
  },
);
