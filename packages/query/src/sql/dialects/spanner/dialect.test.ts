import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../filter/compile.js';
import { DEFAULT_FILTER_LIMITS } from '../../../filter/limits.js';
import { parseOrderBy } from '../../../order-by/order-by.js';
import { defineSchema, t } from '../../../schema/field-type.js';
import { planListQuery } from '../../plan.js';
import { pastLimit, statementShape } from '../../statement-limits.js';
import { suggestIndexes } from '../../suggested-indexes.js';
import { sqlTable } from '../../table.js';
import { spannerCapabilities } from './capabilities.js';
import { spannerDialect } from './dialect.js';
import { spannerString } from './literals.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    size: t.int64(),
    created: t.timestamp(),
    labels: t.map(t.string()),
  },
});
const table = sqlTable(schema, { table: 'rules', dialect: 'spanner' });
const limits = spannerCapabilities.limits!;
const wide = { ...DEFAULT_FILTER_LIMITS, maxTerms: 5000, maxLength: 500_000, maxDepth: 100 };
const plan = (filter: string) =>
  planListQuery(table, {
    filter: compileFilter(filter, schema, { limits: wide }),
    order: parseOrderBy('', schema),
    pageSize: 10,
  });

describe('the Spanner dialect', () => {
  it('writes a constant with quotes, backslashes and control characters escaped', () => {
    expect(spannerString("it's a\\b\nc\rd\te\u007f")).toBe(
      "'it\\'s a\\\\b\\u000ac\\u000dd\\u0009e\\u007f'",
    );
  });

  it('writes $n as @pK by first appearance, and the LIMIT as its integer', () => {
    expect(
      spannerDialect.finish({
        text: "SELECT $2, '$1', `$1`, $1, $2\nLIMIT CAST($3 AS INT64)",
        params: ['a', 'b', '11'],
      }),
    ).toEqual({ text: "SELECT @p1, '$1', `$1`, @p2, @p1\nLIMIT 11", params: ['b', 'a'] });
  });

  it('pushes a regex term down whole, anchored as a full match, with no residual', () => {
    const p = plan('(name eq "web-.*") (size ne "4.")');
    expect(p.exact).toBe(true);
    expect(p.residual).toBeUndefined();
    expect(p.inexact).toEqual([]);
    expect(p.text).toContain('REGEXP_CONTAINS(`name`, @p1)');
    expect(p.text).toContain(
      'NOT (COALESCE((REGEXP_CONTAINS(CAST(`size` AS STRING), @p2)), false))',
    );
    expect(p.params.slice(0, 2)).toEqual(['\\A(?:web-.*)\\z', '\\A(?:4.)\\z']);
  });

  it('closes a \\Q that runs to the end of the pattern inside the anchors', () => {
    expect(spannerDialect.regexPattern!('a\\Qb.c')).toBe('\\A(?:a\\Qb.c\\E)\\z');
    expect(spannerDialect.regexPattern!('\\Qb\\E.')).toBe('\\A(?:\\Qb\\E.)\\z');
    expect(spannerDialect.regexPattern!('\\\\Q.')).toBe('\\A(?:\\\\Q.)\\z');
  });

  it('narrows a pattern too large for Spanner and reports it', () => {
    const p = plan('(name eq "web-\\pL{100}")');
    expect(p.exact).toBe(false);
    expect(p.text).toContain('`name` LIKE');
    expect(p.inexact).toEqual([
      expect.objectContaining({ path: 'name', reason: expect.stringMatching(/RE2 program/) }),
    ]);
  });

  it('lays out the table in Spanner DDL, with the key after the column list', () => {
    expect(table.createTable()).toBe(
      [
        'CREATE TABLE IF NOT EXISTS `rules` (',
        '  `resource` JSON NOT NULL,',
        '  `name` STRING(MAX) NOT NULL,',
        '  `size` INT64 NOT NULL,',
        '  `created` NUMERIC,',
        '  `labels` JSON',
        ') PRIMARY KEY (`name`)',
      ].join('\n'),
    );
    expect(suggestIndexes(table, { orderings: ['created desc'] })).toEqual([
      'CREATE INDEX IF NOT EXISTS rules_order_created_desc_name ON `rules` (`created` DESC, `name`)',
    ]);
  });

  it('inserts with the placeholders of each column type', () => {
    const s = table.insert({
      name: 'a',
      size: '9223372036854775807',
      created: '2024-01-01T00:00:00.000000001Z',
    });
    expect(s.text).toBe(
      'INSERT INTO `rules` (`resource`, `name`, `size`, `created`, `labels`) VALUES (PARSE_JSON(@p1), @p2, CAST(@p3 AS INT64), CAST(@p4 AS NUMERIC), PARSE_JSON(@p5))',
    );
    expect(s.params.slice(1)).toEqual(['a', '9223372036854775807', '1704067200000000001', null]);
  });

  it('counts nesting and calls as the engine does, or more', () => {
    expect(statementShape('SELECT 1 FROM t WHERE NOT (a = @p1)')).toEqual({
      nesting: 2,
      functions: 2,
    });
    // 80 nested NOTs: the emulator refuses (81 nested predicates).
    let e = 'n = @p1';
    for (let i = 0; i < 80; i++) e = `NOT (${e})`;
    expect(statementShape(e).nesting).toBeGreaterThanOrEqual(81);
    expect(statementShape("x['a']['b']['c'] IS NULL").nesting).toBeGreaterThanOrEqual(4);
    expect(pastLimit({ text: 'x'.repeat(limits.textLength + 1), params: [] }, limits)).toMatch(
      /bytes of text/,
    );
  });

  it('past each engine limit, pushes down less and lets the residual decide', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `name = "n${i}"`);
    const presence = Array.from({ length: 400 }, () => 'labels:*');
    const deep = `${'NOT ('.repeat(90)}name = "a"${')'.repeat(90)}`;
    for (const [filter, reason] of [
      [names.join(' OR '), /parameters/],
      [presence.join(' OR '), /function calls/],
      [deep, /nested/],
      [`size > 0 AND (${names.join(' OR ')})`, /parameters/],
    ] as const) {
      const p = plan(filter);
      expect(pastLimit(p, limits)).toBeUndefined();
      expect(p.exact).toBe(false);
      expect(p.residual).toBeDefined();
      expect(p.inexact.at(-1)?.reason).toMatch(reason);
    }
    // The conjunct that fits is kept.
    expect(plan(`size > 0 AND (${names.join(' OR ')})`).text).toContain(
      '`size` > CAST(@p1 AS INT64)',
    );
  });
});
