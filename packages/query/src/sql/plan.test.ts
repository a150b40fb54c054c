import { describe, expect, it } from 'vitest';
import { compileFilter } from '../filter/compile.js';
import { parseOrderBy } from '../order-by/order-by.js';
import { defineSchema, t } from '../schema/field-type.js';
import { listStatementSettings, planListQuery, readPlannedPage } from './plan.js';
import { suggestIndexes } from './suggested-indexes.js';
import { sqlTable } from './table.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true }),
    created: t.timestamp(),
    expires: t.timestamp(),
    size: t.int64(),
    labels: t.map(t.string()),
    sched: t.message({ zone: t.string() }),
  },
  functions: { startsWith: { arity: 2, evaluate: (a, b) => String(a).startsWith(String(b)) } },
});
const table = sqlTable(schema, { table: 'rules', required: ['created'] });

const plan = (filter: string, orderBy = '', cursor?: unknown[], pageSize = 10) =>
  planListQuery(table, {
    filter: compileFilter(filter, schema),
    order: parseOrderBy(orderBy, schema),
    cursor: cursor as never,
    pageSize,
  });

describe('planListQuery', () => {
  it('keeps the redundant leading bound of a mixed-direction cursor', () => {
    const p = plan('', 'created desc', [[1700000000, 5], 'web-1']);
    expect(p.text).toContain(
      'WHERE ("created" <= $1::numeric AND NOT ("created" = $1::numeric AND NOT ("name" COLLATE "C" > $2::text)))',
    );
    expect(p.params.slice(0, 2)).toEqual(['1700000000000000005', 'web-1']);
    expect(p.text).toContain('ORDER BY "created" DESC, "name" COLLATE "C"');
    // A column that may be NULL keeps the OR form (a NOT must not meet an unknown).
    expect(plan('', 'expires desc', [[1700000000, 5], 'web-1']).text).toContain(
      '("expires" <= $1::numeric OR "expires" IS NULL) AND (("expires" < $1::numeric OR "expires" IS NULL) OR ("expires" = $1::numeric AND ("name" COLLATE "C" > $2::text)))',
    );
  });

  it('sorts unset values first, as the in-memory engine does, on columns that may be NULL', () => {
    expect(plan('', 'expires').text).toContain(
      'ORDER BY "expires" NULLS FIRST, "name" COLLATE "C"',
    );
    expect(plan('', 'expires desc').text).toContain('"expires" DESC NULLS LAST');
    // After an unset value in descending order comes nothing but more unset values.
    expect(plan('', 'expires desc', [null, 'a']).text).toContain(
      '"expires" IS NULL AND (FALSE OR ("expires" IS NULL AND ("name" COLLATE "C" > $1::text)))',
    );
  });

  it('scopes a page to columns outside the schema, their values as parameters', () => {
    const p = planListQuery(
      table,
      { filter: compileFilter('size > 3', schema), order: parseOrderBy('', schema), pageSize: 2 },
      { scope: { parent: "projects/p'; DROP TABLE rules; --/regions/r" } },
    );
    expect(p.text).toContain('WHERE "parent" = $2::text AND (');
    expect(p.params[1]).toBe("projects/p'; DROP TABLE rules; --/regions/r");
    expect(p.text).not.toContain('DROP');
  });

  it('asks for one row past the page when the filter pushes down whole', () => {
    const p = plan('size > 3 AND NOT labels.env = "prod"', '', undefined, 7);
    expect(p.exact).toBe(true);
    expect(p.residual).toBeUndefined();
    expect(p.params.at(-1)).toBe('8');
  });

  it('leaves functions and non-portable regexes to a residual, scanning up to the budget', () => {
    const call = plan('startsWith(name, "a") AND size > 3');
    expect(call.exact).toBe(false);
    expect(call.text).toContain('"size" > $1::bigint');
    expect(call.limit).toBe(5000);
    expect(call.residual?.({ name: 'ab', size: '4' })).toBe(true);
    expect(call.residual?.({ name: 'b', size: '4' })).toBe(false);
    const regex = plan('name eq "web-(?i)x.*"');
    expect(regex.exact).toBe(false);
    expect(regex.params[0]).toBe('web%');
    // Literal runs every match contains narrow too (a trigram index answers LIKE '%…%').
    const fragments = plan(String.raw`name eq "w.*_b\bc%.*"`);
    expect(fragments.exact).toBe(false);
    expect(fragments.params.slice(0, 3)).toEqual(['w%', '%\\_b%', '%c\\%%']);
  });

  it('leaves regexes whose PostgreSQL cost is unbounded to the residual, as non-portable ones', () => {
    const hostile: [string, string, boolean][] = [
      // label, pattern, whether it full-matches "b"
      ['(.?){200}.{200}', '(.?){200}.{200}', false],
      ['(.?){100}', '(.?){100}', true],
      ['.* × 4000', '.*'.repeat(4000), true],
      ['(a*)*b', '(a*)*b', true],
      ['(a*)*c', '(a*)*c', false],
    ];
    for (const [label, pattern, matchesB] of hostile) {
      const p = plan(`name eq "${pattern}"`);
      expect(p.exact, label).toBe(false);
      expect(p.text, label).not.toContain(' ~ ');
      expect(p.limit, label).toBe(5000);
      expect(p.residual?.({ name: 'b' }), label).toBe(matchesB);
    }
    // `(a*)*b` still narrows by the literal every match contains.
    expect(plan('name eq "(a*)*b"').params[0]).toBe('%b%');
    // Ordinary patterns are pushed down whole.
    for (const pattern of ['fr-.*', '[a-z]+-[0-9]{1,3}', '(web|api)-.*']) {
      const p = plan(`name eq "${pattern}"`);
      expect(p.exact, pattern).toBe(true);
      expect(p.text, pattern).toContain('"name" COLLATE "C" ~ $1::text');
      expect(p.residual, pattern).toBeUndefined();
    }
  });

  it('does not push down a NOT or an OR over a residual part', () => {
    expect(plan('NOT startsWith(name, "a")').text).not.toContain('WHERE');
    expect(plan('size > 3 OR startsWith(name, "a")').text).not.toContain('WHERE');
  });

  it('escapes LIKE metacharacters in wildcard values', () => {
    expect(plan('name = "a_%\\\\*"').params[0]).toBe('a\\_\\%\\\\%');
    expect(plan('name = "a\\*"').params[0]).toBe('a*');
  });

  it('answers map equality with containment, which a GIN index serves', () => {
    const p = plan('labels.env = "prod"');
    expect(p.text).toContain('"labels" @> $1::jsonb');
    expect(p.params[0]).toBe('{"env":"prod"}');
  });
});

describe('global restrictions', () => {
  it('search fields of other types by their JSON text, as the in-memory engine does', () => {
    const odd = defineSchema({
      key: 'name',
      fields: { name: t.string({ searchable: true }), size: t.int64({ searchable: true }) },
    });
    const oddTable = sqlTable(odd, { table: 'odd' });
    const p = planListQuery(oddTable, {
      filter: compileFilter('12', odd),
      order: parseOrderBy('', odd),
      pageSize: 5,
    });
    expect(p.text).toContain(`("name" COLLATE "C" LIKE $1::text ESCAPE '\\')`);
    expect(p.text).toContain(
      `(jsonb_typeof(("resource" -> 'size')) = 'string' AND (("resource" -> 'size') #>> '{}') LIKE $2::text ESCAPE '\\')`,
    );
    expect(p.residual).toBeUndefined();
    // int64 text is searched; an int64 JSON number is not.
    const filter = compileFilter('12', odd);
    expect(filter.matches({ name: 'a', size: '312' })).toBe(true);
    expect(filter.matches({ name: 'a', size: 312 })).toBe(false);
  });
});

describe('readPlannedPage', () => {
  const order = parseOrderBy('', schema);
  const rows = ['a', 'b', 'c', 'd'].map((name) => ({ name }));

  it('keeps pageSize rows and a cursor when one more came back', () => {
    const p = plan('', '', undefined, 3);
    expect(readPlannedPage(p, rows)).toEqual({
      items: rows.slice(0, 3),
      next: order.sortKey(rows[2]!),
    });
    expect(readPlannedPage(p, rows.slice(0, 3))).toEqual({ items: rows.slice(0, 3) });
  });

  it('returns a short page after the last row scanned when the budget ran out', () => {
    const p = planListQuery(
      table,
      { filter: compileFilter('startsWith(name, "z")', schema), order, pageSize: 2 },
      { scanBudget: 4 },
    );
    expect(p.limit).toBe(4);
    expect(readPlannedPage(p, rows)).toEqual({ items: [], next: order.sortKey(rows[3]!) });
    expect(readPlannedPage(p, rows.slice(0, 3))).toEqual({ items: [] });
  });
});

describe('sqlTable', () => {
  it('rejects resources the in-memory engine would read differently', () => {
    expect(() => table.row({ name: 'a' })).toThrow('created is required');
    expect(() => table.row({ name: 'a', created: 'yesterday' })).toThrow('RFC 3339');
    expect(() => table.row({ name: 'a\u0000', created: '2024-01-01T00:00:00Z' })).toThrow('U+0000');
    expect(() => table.row({ name: 'a', created: '2024-01-01T00:00:00Z', size: 1.5 })).toThrow(
      '64-bit',
    );
  });

  it('refuses an infinite double where it would be JSON text, which reads it as null', () => {
    const sized = defineSchema({
      key: 'name',
      fields: { name: t.string(), size: t.double(), sizes: t.repeated(t.double()) },
    });
    const document = sqlTable(sized, { table: 'sized' });
    expect(() => document.row({ name: 'a', size: Infinity })).toThrow(
      'resource.size is Infinity, which JSON text cannot hold',
    );
    expect(() => document.row({ name: 'a', sizes: [1, -Infinity] })).toThrow(
      'resource.sizes[1] is -Infinity',
    );
    expect(document.row({ name: 'a', size: 1.5, sizes: [2] })[0]).toBe(
      '{"name":"a","size":1.5,"sizes":[2]}',
    );
    // A table of your own holds a scalar double in its column; its lists are JSON text.
    const own = sqlTable(sized, {
      table: 'sized',
      document: false,
      columns: { name: 'name', size: 'size', sizes: 'sizes' },
    });
    expect(own.row({ name: 'a', size: -Infinity })).toEqual(['a', '-Infinity', null]);
    expect(() => own.row({ name: 'a', sizes: [Infinity] })).toThrow('sizes[0] is Infinity');
  });

  it('stores timestamps as exact nanoseconds and an absent message as NULL', () => {
    const row = table.row({
      name: 'a',
      created: '1969-12-31T23:59:59.000000001Z',
      size: '-9223372036854775808',
    });
    expect(table.insertColumns).toEqual([
      '"resource"',
      '"name"',
      '"created"',
      '"expires"',
      '"size"',
      '"labels"',
      '"sched__zone"',
    ]);
    expect(row.slice(1)).toEqual(['a', '-999999999', null, '-9223372036854775808', null, null]);
  });
});

describe("documentType: 'json'", () => {
  const json = sqlTable(schema, { table: 'rules', required: ['created'], documentType: 'json' });
  const planJson = (filter: string) =>
    planListQuery(json, {
      filter: compileFilter(filter, schema),
      order: parseOrderBy('', schema),
      pageSize: 10,
    });

  it('keeps the document as json, writes the same row and reads it as text, unconverted', () => {
    expect(json.documentType).toBe('json');
    expect(table.documentType).toBe('jsonb');
    expect(json.createTable()).toContain('"resource" json NOT NULL');
    const rule = { name: 'a', created: '2024-01-01T00:00:00Z', sched: { zone: 'z' } };
    expect(json.row(rule)).toEqual(table.row(rule));
    expect(json.insertColumns).toEqual(table.insertColumns);
    expect(planJson('').text).toMatch(/^SELECT "resource"::text AS "resource" FROM "rules"/);
  });

  it('filters on the document through a jsonb cast, and on columns as before', () => {
    expect(planJson('sched:*').text).toContain(
      `COALESCE((("resource"::jsonb) -> 'sched') NOT IN (`,
    );
    expect(planJson('sched.zone:*').text).toContain(`("resource"::jsonb)`);
    expect(planJson('sched.zone:*').text).not.toMatch(/"resource" ->/);
    expect(planJson('labels.env = "prod"').text).toBe(plan('labels.env = "prod"').text);
    expect(planJson('size > 3').text).toBe(plan('size > 3').text);
  });

  it('wants the same indexes as the jsonb layout (filters never index the document)', () => {
    const orderings = ['', 'created desc', 'expires'];
    expect(suggestIndexes(json, { orderings, trigram: true })).toEqual(
      suggestIndexes(table, { orderings, trigram: true }),
    );
  });

  it('is refused for a table of your own, and any other type is refused', () => {
    expect(() => sqlTable(schema, { table: 'own', document: false, documentType: 'json' })).toThrow(
      'not a table of your own',
    );
    expect(() => sqlTable(schema, { table: 'r', documentType: 'text' as never })).toThrow(
      "documentType must be 'jsonb' or 'json'",
    );
  });
});

describe('suggestIndexes', () => {
  it('gives a btree per ordering in the query form, and GIN for maps', () => {
    expect(
      suggestIndexes(table, { orderings: ['', 'created desc', 'expires'], trigram: true }),
    ).toEqual([
      'CREATE INDEX IF NOT EXISTS rules_order_name ON "rules" ("name" COLLATE "C")',
      'CREATE INDEX IF NOT EXISTS rules_order_created_desc_name ON "rules" ("created" DESC, "name" COLLATE "C")',
      'CREATE INDEX IF NOT EXISTS rules_order_expires_name ON "rules" ("expires" NULLS FIRST, "name" COLLATE "C")',
      'CREATE INDEX IF NOT EXISTS rules_gin_labels ON "rules" USING gin ("labels")',
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      'CREATE INDEX IF NOT EXISTS rules_trgm_name ON "rules" USING gin ("name" gin_trgm_ops)',
    ]);
  });
});

describe('listStatementSettings', () => {
  it('forces custom plans and sets the timeout for the transaction only', () => {
    const s = listStatementSettings(1500);
    expect(s.text).toContain("set_config('plan_cache_mode', 'force_custom_plan', true)");
    expect(s.params).toEqual(['1500']);
  });
});

describe('presence and `:` on strings, as the in-memory engine', () => {
  const listSchema = defineSchema({
    key: 'name',
    fields: { name: t.string(), size: t.int64(), tags: t.repeated(t.string()) },
  });
  const listTable = sqlTable(listSchema, { table: 'rules' });
  const planOf = (filter: string) =>
    planListQuery(listTable, {
      filter: compileFilter(filter, listSchema),
      order: parseOrderBy('', listSchema),
      pageSize: 10,
    });

  it('reads the text "0" as present, except in an int64 field', () => {
    expect(planOf('name:*').text).not.toContain(`'"0"'::jsonb`);
    expect(planOf('size:*').text).toContain(`'"0"'::jsonb`);
  });

  it('tests a string element under `:` for containing the text (LIKE), not equality', () => {
    const p = planOf('tags:lph');
    expect(p.text).toMatch(/EXISTS \(SELECT 1 FROM jsonb_array_elements\(.* LIKE \$1::text/);
    expect(p.params[0]).toBe('%lph%');
  });
});

describe('planListQuery with a parent', () => {
  const scoped = (parent: string, parentColumn?: string) =>
    planListQuery(
      table,
      {
        filter: compileFilter('', schema),
        order: parseOrderBy('', schema),
        pageSize: 10,
        parent,
      },
      parentColumn ? { parentColumn } : {},
    );

  it('bounds the key to the parent’s run of names, which the key’s index seeks', () => {
    const p = scoped('shelves/1');
    expect(p.text).toContain(
      `WHERE "name" COLLATE "C" >= $1::text AND "name" COLLATE "C" < $2::text AND length("name" COLLATE "C") - length(replace("name" COLLATE "C", '/', '')) = $3::integer`,
    );
    expect(p.params.slice(0, 3)).toEqual(['shelves/1/', 'shelves/10', '3']);
  });

  it('matches `-` segments with LIKE, the literal part escaped', () => {
    const p = scoped('a_b/-');
    expect(p.params.slice(0, 4)).toEqual(['a_b/', 'a_b0', 'a\\_b/%/%', '3']);
    expect(scoped('-/1').params.slice(0, 2)).toEqual(['%/1/%', '3']);
  });

  it('compares a parent column when one is given', () => {
    expect(scoped('shelves/1', 'shelf').text).toContain(`WHERE "shelf" COLLATE "C" = $1::text`);
    expect(scoped('shelves/-', 'shelf').params[0]).toBe('shelves/%');
  });

  it('matches nothing under a parent no stored text can hold', () => {
    expect(scoped('shelves/\u0000').text).toContain('WHERE FALSE');
  });
});
