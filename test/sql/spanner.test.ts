// What the Spanner dialect promises beyond the differential properties, on the emulator:
// Compute's regex filters push down whole (RE2 is Spanner's regex) and run with no residual;
// filters past each of Spanner's statement limits are planned within them, never an engine
// error, and list as the in-memory engine does; a page past its deadline is a query_timeout.
import {
  Collection,
  compileFilter,
  DEFAULT_FILTER_LIMITS,
  ListkitError,
  type ListPage,
  type ListRequest,
  PageTokenCodec,
  parseOrderBy,
} from '@listkit/query';
import {
  listFromSql,
  planListQuery,
  spannerRunner,
  sqlDialect,
  sqlTable,
  suggestIndexes,
} from '@listkit/query/sql';
import { forwardingRuleSchema, sampleForwardingRules } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSpanner, spannerSkipReason } from '../support/spanner-database.js';

const codec = await PageTokenCodec.create();
const rules = sampleForwardingRules(400);
const limits = { ...DEFAULT_FILTER_LIMITS, maxTerms: 5000, maxLength: 500_000, maxDepth: 100 };

async function walk(list: (r: ListRequest) => Promise<ListPage<object>>, request: ListRequest) {
  const pages: object[][] = [];
  let pageToken: string | undefined;
  do {
    const page = await list({ ...request, pageToken });
    pages.push(page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return pages;
}

const REGEX_FILTERS = [
  '(name eq "cache-.*")',
  '(name eq "(?i)CACHE-prod-.*-000[1-3]") (IPProtocol ne "UDP")',
  '(description eq "") (IPAddress eq "10\\.0\\.0\\.[0-9]+")',
  '(name ne ".*-00[0-4][0-9]") (labels.env eq "prod|dev")',
  '(id eq "10+7.*")',
  '(name eq "\\Qcache-prod\\E.*")',
];

const names = Array.from({ length: 1000 }, (_, i) => `name = "cache-prod-us-east1-${i}"`);
const PAST_LIMITS: [limit: string, filter: string][] = [
  ['parameters', names.join(' OR ')],
  ['function calls', Array.from({ length: 400 }, () => 'labels:*').join(' OR ')],
  ['nested', `${'NOT ('.repeat(80)}name = "cache-*"${')'.repeat(80)}`],
  ['parameters', `IPProtocol = TCP AND (${names.slice(0, 990).join(' OR ')})`],
];

const skip = spannerSkipReason();
describe.skipIf(skip !== undefined)(
  `Spanner on the emulator${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let db: Awaited<ReturnType<typeof openSpanner>>;
    const table = sqlTable(forwardingRuleSchema, {
      table: `listkit_rules_${process.pid}`,
      dialect: 'spanner',
      required: ['creationTimestamp'],
    });
    const collection = new Collection<object>(forwardingRuleSchema, { pageTokens: codec });
    for (const rule of rules) collection.put(rule);

    beforeAll(async () => {
      db = await openSpanner();
      await db.exec(table.createTable());
      for (const ddl of suggestIndexes(table, { orderings: ['', 'creationTimestamp desc'] })) {
        await db.exec(ddl);
      }
      await db.load!(table, rules);
    }, 300_000);
    afterAll(() => db?.close(), 60_000);

    it('runs Compute regex filters with no residual, page for page as in memory', async () => {
      for (const filter of REGEX_FILTERS) {
        const plan = planListQuery(table, {
          filter: compileFilter(filter, forwardingRuleSchema),
          order: parseOrderBy('', forwardingRuleSchema),
          pageSize: 50,
        });
        expect(plan.exact, filter).toBe(true);
        expect(plan.residual).toBeUndefined();
        expect(plan.inexact).toEqual([]);
        expect(plan.text).toContain('REGEXP_CONTAINS');
        for (const orderBy of ['', 'creationTimestamp desc']) {
          const request = { filter, orderBy, pageSize: 37 };
          const expected = await walk((r) => collection.list(r), request);
          const actual = await walk(
            (r) => listFromSql<object>(r, { table, pageTokens: codec, run: db.run }),
            request,
          );
          expect(actual, `${filter} / ${orderBy}`).toEqual(expected);
          expect(expected.flat().length).toBeGreaterThan(0);
        }
      }
    }, 300_000);

    it('plans filters past each statement limit within it, and lists them as in memory', async () => {
      for (const [limit, filter] of PAST_LIMITS) {
        const plan = planListQuery(table, {
          filter: compileFilter(filter, forwardingRuleSchema, { limits }),
          order: parseOrderBy('', forwardingRuleSchema),
          pageSize: 50,
        });
        expect(plan.exact, limit).toBe(false);
        expect(plan.inexact.at(-1)?.reason).toContain(limit);
        const request = { filter, pageSize: 60 };
        const wide = new Collection<object>(forwardingRuleSchema, { pageTokens: codec, limits });
        for (const rule of rules) wide.put(rule);
        const expected = await walk((r) => wide.list(r), request);
        const actual = await walk(
          (r) => listFromSql<object>(r, { table, pageTokens: codec, run: db.run, limits }),
          request,
        );
        expect(actual, limit).toEqual(expected);
      }
    }, 300_000);

    it('reports a page past its deadline as query_timeout', async () => {
      const run = spannerRunner(db.database as never, { timeoutMs: 1 });
      const error = await listFromSql<object>(
        { filter: '(description eq ".*(a|b|c)*x")', pageSize: 500 },
        { table, pageTokens: codec, run },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListkitError);
      expect((error as ListkitError).code).toBe('query_timeout');
    }, 60_000);

    it('refuses, when declared, a column of your own it cannot hold exactly', () => {
      expect(() =>
        sqlTable(forwardingRuleSchema, {
          table: 'rules',
          dialect: 'spanner',
          document: false,
          columns: { creationTimestamp: { type: 'timestamptz' } },
        }),
      ).toThrow('cannot be stored as timestamptz in spanner: use numeric');
      expect(sqlDialect('spanner').capabilities.ownColumnTypes.timestamp).toEqual(['numeric']);
    });
  },
);
