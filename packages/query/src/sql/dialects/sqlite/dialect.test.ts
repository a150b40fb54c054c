import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../filter/compile.js';
import { parseOrderBy } from '../../../order-by/order-by.js';
import { defineSchema, t } from '../../../schema/field-type.js';
import { planListQuery } from '../../plan.js';
import { sqlTable } from '../../table.js';
import { sqliteDialect, sqliteNanosText } from './dialect.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), created: t.timestamp(), labels: t.map(t.string()) },
});

describe('the SQLite dialect', () => {
  it('writes $n as ?, repeating values where a placeholder repeats', () => {
    expect(sqliteDialect.finish({ text: `SELECT $2, '$1', $1, $2`, params: ['a', 'b'] })).toEqual({
      text: `SELECT ?, '$1', ?, ?`,
      params: ['b', 'a', 'b'],
    });
  });

  it('stores nanoseconds as fixed-width text that orders as the values do', () => {
    const values = ['-62135596800000000000', '-1', '0', '1', '253402300799999999999'];
    const texts = values.map(sqliteNanosText);
    expect(new Set(texts.map((x) => x.length))).toEqual(new Set([22]));
    expect([...texts].sort()).toEqual(texts);
  });

  it('reports a regex term it leaves to the residual in plan.inexact', () => {
    const table = sqlTable(schema, { table: 'rules', dialect: 'sqlite' });
    const plan = planListQuery(table, {
      filter: compileFilter('(name eq "web-.*")', schema),
      order: parseOrderBy('', schema),
      pageSize: 10,
    });
    expect(plan.exact).toBe(false);
    expect(plan.text).toContain('"name" GLOB ?');
    expect(plan.params).toContain('web-*');
    expect(plan.inexact).toEqual([
      expect.objectContaining({
        path: 'name',
        column: '"name"',
        reason: expect.stringMatching(/regex/),
      }),
    ]);
  });

  it('refuses what the engine cannot hold when the table is declared', () => {
    expect(() =>
      sqlTable(schema, { table: 'r', dialect: 'sqlite', documentType: 'jsonb' }),
    ).toThrow(/documentType must be 'json' in sqlite/);
    expect(() =>
      sqlTable(schema, { table: 'r', dialect: 'sqlite', document: false, columns: {} }),
    ).toThrow(/not supported in sqlite/);
  });
});
