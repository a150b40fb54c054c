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
    // A table of your own: timestamps only as listkit's nanosecond text.
    const own = (type: 'integer' | 'real') => () =>
      sqlTable(schema, {
        table: 'r',
        dialect: 'sqlite',
        document: false,
        columns: { created: { type } },
      });
    expect(own('integer')).toThrow(
      '"created" (timestamp) cannot be stored as integer in sqlite: use text',
    );
    expect(own('real')).toThrow(/cannot be stored as real in sqlite/);
  });

  it('writes an infinite double parameter as a literal SQLite reads as infinity', () => {
    // CAST('-Infinity' AS REAL) is 0: a keyset cursor at -Infinity looped (own-table.test.ts).
    expect(sqliteDialect.paramValue('-Infinity', 'float8')).toBe('-9e999');
    expect(sqliteDialect.paramValue('Infinity', 'float8')).toBe('9e999');
    expect(sqliteDialect.paramValue('0.1', 'float8')).toBe('0.1');
  });

  it('reads a table of your own with qualified names, nanoseconds as 22-digit text', () => {
    const table = sqlTable(schema, {
      table: 'r',
      dialect: 'sqlite',
      document: false,
      columns: { created: 'created', labels: 'labels' },
    });
    expect(table.createTable()).toBe(
      'CREATE TABLE IF NOT EXISTS "r" (\n  "created" TEXT,\n  "labels" TEXT,\n  "name" TEXT NOT NULL,\n  PRIMARY KEY ("name")\n) STRICT, WITHOUT ROWID',
    );
    expect(table.row({ name: 'a', created: '1970-01-01T00:00:00.000000001Z' })).toEqual([
      '1000000000000000000001',
      null,
      'a',
    ]);
    const plan = planListQuery(table, {
      filter: compileFilter('created > "2024-01-01T00:00:00Z"', schema),
      order: parseOrderBy('created desc', schema),
      pageSize: 5,
    });
    expect(plan.text).toContain('"r"."created" > ?');
    expect(plan.params[0]).toBe(sqliteNanosText('1704067200000000000'));
    expect(table.readRow({ name: 'a', created: '0999999999999999999999' })).toEqual({
      name: 'a',
      created: '1969-12-31T23:59:59.999999999Z',
    });
    expect(() => table.readRow({ name: 'a', created: '2024-01-01' })).toThrow(/created: expected/);
  });
});
