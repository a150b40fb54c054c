// What the differential properties cannot show on SQLite: the page's statement reads the rows in
// the primary key's btree (the table is WITHOUT ROWID, decision 0088), and sqliteRunner keeps a
// page of several statements in one transaction and gives rows of one or many columns.
import { defineSchema, PageTokenCodec, t } from '@listkit/query';
import { listFromSql, type SqlRunner, sqliteRunner, sqlTable } from '@listkit/query/sql';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), labels: t.map(t.string()) },
});
const table = sqlTable(schema, { table: 'rules', dialect: 'sqlite' });

function filled(count: number): Database.Database {
  const db = new Database(':memory:');
  db.exec(table.createTable());
  const insert = db.prepare(table.insert({ name: 'x' }).text);
  for (let i = 0; i < count; i++) {
    insert.run(...table.insert({ name: `r${String(i).padStart(4, '0')}` }).params);
  }
  return db;
}

describe('SQLite pages', () => {
  it('read the rows in the primary key btree, with no lookup by rowid', async () => {
    const db = filled(50);
    const statements: string[] = [];
    const inner = sqliteRunner(db);
    const run: SqlRunner = (s, plan) => {
      statements.push(...s.map((x) => x.text));
      return inner(s, plan);
    };
    const pageTokens = await PageTokenCodec.create();
    const first = await listFromSql({ pageSize: 20 }, { table, pageTokens, run });
    const second = await listFromSql(
      { pageSize: 20, pageToken: first.nextPageToken },
      { table, pageTokens, run },
    );
    expect(second.items.map((r) => (r as { name: string }).name)[0]).toBe('r0020');
    const last = statements.at(-1)!;
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${last}`)
      .all('r0019', 21)
      .map((row) => (row as { detail: string }).detail);
    expect(plan).toEqual(['SEARCH rules USING PRIMARY KEY (name>?)']);
    expect(db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'rules'").pluck().get()).toMatch(
      /\) STRICT, WITHOUT ROWID$/,
    );
  });

  it('run several statements in one transaction: a failure undoes the writes before it', async () => {
    const db = filled(0);
    const run = sqliteRunner(db);
    const write = table.insert({ name: 'written' });
    await expect(run([write, { text: 'SELECT * FROM no_such_table', params: [] }])).rejects.toThrow(
      /no such table/,
    );
    expect(db.prepare('SELECT count(*) FROM rules').pluck().get()).toBe(0);
    // The same statements without the failure commit together.
    const rows = await run([write, { text: 'SELECT name FROM rules', params: [] }]);
    expect(rows).toEqual([{ name: 'written' }]);
    // Rows of several columns, keyed by each column's name, values as SQLite gives them.
    const wide = await run([
      { text: "SELECT name, 1 AS one, NULL AS none, 'x' AS name2 FROM rules", params: [] },
    ]);
    expect(wide).toEqual([{ name: 'written', one: 1, none: null, name2: 'x' }]);
  });

  it('write infinite doubles into the REAL columns of a table of your own', async () => {
    const sized = defineSchema({ key: 'id', fields: { id: t.int64(), size: t.double() } });
    const written = sqlTable(sized, {
      table: 'own_layout',
      dialect: 'sqlite',
      document: false,
      columns: { id: 'id', size: 'size' },
    });
    const db = new Database(':memory:');
    db.exec(written.createTable());
    const run = sqliteRunner(db);
    // STRICT REAL refuses the text `Infinity` ("cannot store TEXT value in REAL column").
    for (const [id, size] of [
      ['1', Infinity],
      ['2', -Infinity],
      ['3', 1.5],
    ] as const) {
      await run([written.insert({ id, size })]);
    }
    const sizes = db.prepare('SELECT size FROM own_layout ORDER BY id').pluck().all();
    expect(sizes).toEqual([Infinity, -Infinity, 1.5]);
    const pageTokens = await PageTokenCodec.create();
    const page = await listFromSql(
      { orderBy: 'size', pageSize: 10 },
      { table: written, pageTokens, run },
    );
    expect(page.items).toEqual([
      { id: '2', size: -Infinity },
      { id: '3', size: 1.5 },
      { id: '1', size: Infinity },
    ]);
  });
});
