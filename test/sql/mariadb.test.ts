// What the differential properties cannot show on MariaDB: the time limit the statement carries,
// the index ranges the keyset condition seeks, mysql2Runner over one connection, and text a
// VARBINARY column cannot hold refused.
import { defineSchema, ListkitError, PageTokenCodec, t } from '@listkit/query';
import { listFromSql, mysql2Runner, sqlTable, suggestIndexes } from '@listkit/query/sql';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mariadbSkipReason } from '../support/sql-databases.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), zone: t.string(), labels: t.map(t.string()) },
});
const table = sqlTable(schema, { table: `listkit_mariadb_${process.pid}`, dialect: 'mysql' });
const ROWS = 20_000;

const skip = mariadbSkipReason();
describe.skipIf(skip !== undefined)(
  `on a MariaDB server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let connection: mysql.Connection;
    const pageTokens = PageTokenCodec.create();

    beforeAll(async () => {
      connection = await mysql.createConnection({ uri: process.env.LISTKIT_MARIADB_URL! });
      await connection.query(`DROP TABLE IF EXISTS ${table.name}`);
      await connection.query(table.createTable());
      for (const ddl of suggestIndexes(table, { orderings: ['', 'zone, name desc'] })) {
        await connection.query(ddl);
      }
      // MariaDB's sequence engine: ROWS resources in one statement.
      await connection.query(
        `INSERT INTO ${table.name} (${table.insertColumns.join(', ')})
       SELECT JSON_OBJECT('name', CONCAT('r', seq), 'zone', CONCAT('z', seq % 7), 'labels', JSON_OBJECT('env', 'prod')),
              CONCAT('r', seq), CONCAT('z', seq % 7), '{"env":"prod"}'
       FROM seq_1_to_${ROWS}`,
      );
      await connection.query(`ANALYZE TABLE ${table.name}`);
    }, 120_000);
    afterAll(async () => {
      await connection?.query(`DROP TABLE IF EXISTS ${table.name}`);
      await connection?.end();
    });

    it('stops a statement past its time limit with query_timeout', async () => {
      const run = mysql2Runner(connection);
      const list = listFromSql(
        { filter: 'labels.env = "none" OR zone:"q"', pageSize: 10 },
        { table, pageTokens: await pageTokens, run, statementTimeoutMs: 1 },
      );
      await expect(list).rejects.toSatisfy(
        (e) => e instanceof ListkitError && e.code === 'query_timeout',
      );
      // The connection is fine afterwards, and a page within its limit comes back.
      const page = await listFromSql(
        { orderBy: 'zone, name desc', pageSize: 3 },
        { table, pageTokens: await pageTokens, run },
      );
      expect(page.items.map((r) => (r as { name: string }).name)).toEqual([
        'r9996',
        'r9989',
        'r9982',
      ]);
    });

    it('seeks the ordering index in ranges after a cursor: no filesort, no full scan', async () => {
      const codec = await pageTokens;
      const run = mysql2Runner(connection);
      const first = await listFromSql(
        { orderBy: 'zone, name desc', pageSize: 500 },
        { table, pageTokens: codec, run },
      );
      let statement = '';
      let params: (string | null)[] = [];
      await listFromSql(
        { orderBy: 'zone, name desc', pageSize: 500, pageToken: first.nextPageToken },
        {
          table,
          pageTokens: codec,
          run: async (statements, plan) => {
            // The plan without its time limit (EXPLAIN takes no SET STATEMENT).
            statement = plan!.text;
            params = [...plan!.params];
            return run(statements);
          },
        },
      );
      const [plan] = (await connection.query({
        sql: `EXPLAIN ${statement}`,
        values: params,
      })) as unknown as [{ type: string; key: string; Extra: string }[]];
      expect(plan[0]).toMatchObject({
        type: 'range',
        key: expect.stringContaining('order_zone_name_desc'),
      });
      expect(plan[0]!.Extra).not.toMatch(/filesort/);
      // And it starts at the cursor: the page reads its own rows (501), not the 500 before them in
      // the zone. (MariaDB 10.11 derives the same ranges from PostgreSQL's nested form too; the
      // disjunction is the form the MySQL manual documents for its range optimizer.)
      const reads = async () => {
        const [rows] = (await connection.query(
          `SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_next', 'Handler_read_prev', 'Handler_read_key')`,
        )) as unknown as [{ Value: string }[]];
        return rows.reduce((sum, r) => sum + Number(r.Value), 0);
      };
      const before = await reads();
      await connection.execute(statement, params);
      expect((await reads()) - before).toBeLessThan(600);
    });

    it('refuses text longer than a VARBINARY column holds, naming the column', async () => {
      const { text, params } = table.insert({ name: 'x'.repeat(1025), zone: 'z' });
      await expect(connection.execute(text, [...params])).rejects.toThrow(
        /Data too long for column 'name'/,
      );
    });
  },
);
