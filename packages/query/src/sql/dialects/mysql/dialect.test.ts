import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../filter/compile.js';
import { parseOrderBy } from '../../../order-by/order-by.js';
import { defineSchema, t } from '../../../schema/field-type.js';
import { planListQuery } from '../../plan.js';
import { suggestIndexes } from '../../suggested-indexes.js';
import { sqlTable } from '../../table.js';
import { mysqlDialect, mysqlIdentifier, mysqlLiteral, mysqlTimeLimited } from './dialect.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), created: t.timestamp(), labels: t.map(t.string()), on: t.bool() },
});
const table = sqlTable(schema, { table: 'app.rules', dialect: 'mysql', required: ['created'] });

describe('the MySQL dialect', () => {
  it('writes $n as ?, outside quoted text and identifiers, and the LIMIT as a literal', () => {
    expect(
      mysqlDialect.finish({
        text: "SELECT `a$1`, $2, '$1', $1\nLIMIT CAST($3 AS SIGNED)",
        params: ['a', 'b', '11'],
      }),
    ).toEqual({ text: "SELECT `a$1`, ?, '$1', ?\nLIMIT 11", params: ['b', 'a'] });
  });

  it('quotes identifiers with backticks and constants the same under any sql_mode', () => {
    expect(mysqlIdentifier('app.ru`les')).toBe('`app`.`ru``les`');
    expect(mysqlLiteral(`$."it's"`)).toBe(`'$."it''s"'`);
    // A backslash (read differently under NO_BACKSLASH_ESCAPES) or non-ASCII goes as hex.
    expect(mysqlLiteral('a\\é')).toBe("_utf8mb4 X'615cc3a9'");
  });

  it('lays strings out as VARBINARY and nanoseconds as DECIMAL', () => {
    const ddl = table.createTable();
    expect(ddl).toContain('`name` VARBINARY(1024) NOT NULL');
    expect(ddl).toContain('`created` DECIMAL(21,0) NOT NULL');
    expect(ddl).toContain('`resource` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
    expect(ddl).toMatch(/\) ENGINE=InnoDB$/);
    expect(
      table.insert({ name: 'a', created: '2024-01-01T00:00:00.000000001Z', on: true }),
    ).toEqual({
      text: 'INSERT INTO `app`.`rules` (`resource`, `name`, `created`, `labels`, `on`) VALUES (?, ?, ?, ?, ?)',
      params: [
        '{"name":"a","created":"2024-01-01T00:00:00.000000001Z","on":true}',
        'a',
        '1704067200000000001',
        null,
        '1',
      ],
    });
  });

  it('pages by a disjunction of ranges, which the range optimizer seeks', () => {
    const plan = planListQuery(table, {
      filter: compileFilter('', schema),
      order: parseOrderBy('created desc', schema),
      cursor: [[1704067200, 0], 'web'],
      pageSize: 10,
    });
    expect(plan.text).toBe(
      [
        'SELECT `resource` AS `resource` FROM `app`.`rules`',
        'WHERE ((`created` < CAST(? AS DECIMAL(21,0))) OR (`created` = CAST(? AS DECIMAL(21,0)) AND `name` > ?))',
        'ORDER BY `created` DESC, `name`',
        'LIMIT 11',
      ].join('\n'),
    );
    expect(plan.params).toEqual(['1704067200000000000', '1704067200000000000', 'web']);
  });

  it('reports a regex term it leaves to the residual in plan.inexact', () => {
    const plan = planListQuery(table, {
      filter: compileFilter('(name eq "web-.*")', schema),
      order: parseOrderBy('', schema),
      pageSize: 10,
    });
    expect(plan.exact).toBe(false);
    expect(plan.text).toContain("`name` LIKE ? ESCAPE '!'");
    expect(plan.params).toContain('web-%');
    expect(plan.inexact).toEqual([
      expect.objectContaining({
        path: 'name',
        reason: expect.stringMatching(/mysql has no regex/),
      }),
    ]);
  });

  it('escapes LIKE text with !, never a backslash', () => {
    expect(mysqlDialect.patternText([{ text: 'a!%_\\' }, 'any'])).toBe('a!!!%!_\\%');
  });

  it('writes a time limit each engine reads and the other skips', () => {
    expect(mysqlTimeLimited({ text: 'SELECT 1', params: [] }, 2500).text).toBe(
      '/*M!100300 SET STATEMENT max_statement_time=2.500 FOR */ SELECT /*+ MAX_EXECUTION_TIME(2500) */ 1',
    );
    expect(mysqlDialect.isTimeout?.({ errno: 1969 })).toBe(true);
    expect(mysqlDialect.isTimeout?.({ errno: 3024 })).toBe(true);
    expect(mysqlDialect.isTimeout?.(new Error('x'))).toBe(false);
  });

  it('suggests plain CREATE INDEX (MySQL has no IF NOT EXISTS for indexes) and no GIN', () => {
    expect(suggestIndexes(table, { orderings: ['', 'created desc'] })).toEqual([
      'CREATE INDEX app_rules_order_name ON `app`.`rules` (`name`)',
      'CREATE INDEX app_rules_order_created_desc_name ON `app`.`rules` (`created` DESC, `name`)',
    ]);
  });

  it('refuses what the engine cannot hold when the table is declared', () => {
    expect(() => sqlTable(schema, { table: 'r', dialect: 'mysql', documentType: 'jsonb' })).toThrow(
      /documentType must be 'json' in mysql/,
    );
    // A table of your own: timestamps only as DECIMAL nanoseconds, strings as bytes.
    expect(() =>
      sqlTable(schema, {
        table: 'r',
        dialect: 'mysql',
        document: false,
        columns: { created: { type: 'timestamp' } },
      }),
    ).toThrow('"created" (timestamp) cannot be stored as timestamp in mysql: use decimal');
  });
});
