// The query builders' pages (@listkit/query/kysely, /drizzle, /typeorm) pass the same
// differential properties as listFromSql with a bare runner (test/support/sql-properties.ts):
// every page equal to the in-memory Collection's, short pages under a scan budget of 1, and page
// tokens passed between the builder and a Collection both ways; on each engine each supports.
import { drizzleSql } from '@listkit/query/drizzle';
import { typeormSql } from '@listkit/query/typeorm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closeBuilders,
  drizzleCompiledRunner,
  drizzleRunner,
  kyselyCompiledRunner,
  kyselyRunner,
  typeormOn,
} from '../support/query-builders.js';
import { spannerSkipReason } from '../support/spanner-database.js';
import {
  mariadbSkipReason,
  openMariadb,
  openPglite,
  openPostgres,
  openSqlite,
  postgresSkipReason,
} from '../support/sql-databases.js';
import { differential, RUNS } from '../support/sql-properties.js';

// A third of the runs of the bare runners' properties: the same generators, three builders.
const runs = Math.ceil(RUNS / 3);
afterAll(closeBuilders);

describe('builder fragments', () => {
  const text = `"a$1" = $2::text AND b = '$1''$2' AND c = $1::bigint`;

  it("Drizzle: $n become the dialect's parameters; quoted text stays", () => {
    expect(new PgDialect().sqlToQuery(drizzleSql(text, ['7', 'x']))).toEqual({
      sql: `"a$1" = $1::text AND b = '$1''$2' AND c = $2::bigint`,
      params: ['x', '7'],
      typings: ['none', 'none'],
    });
    expect(new SQLiteSyncDialect().sqlToQuery(drizzleSql(text, ['7', 'x'])).sql).toBe(
      `"a$1" = ?::text AND b = '$1''$2' AND c = ?::bigint`,
    );
    expect(() => drizzleSql('x = $3', ['a'])).toThrow('placeholder $3 has no parameter');
  });

  it('TypeORM: parameters are named anew on every call', () => {
    const [first, firstParams] = typeormSql(text, ['7', 'x']);
    const [second, secondParams] = typeormSql(text, ['7', 'x']);
    expect(first).toMatch(
      /^"a\$1" = :listkit_\d+_1::text AND b = '\$1''\$2' AND c = :listkit_\d+_2::bigint$/,
    );
    expect(Object.values(firstParams)).toEqual(['x', '7']);
    expect(Object.keys(secondParams).some((name) => name in firstParams)).toBe(false);
    expect(second).not.toBe(first);
  });
});

describe('Kysely on PGlite', () => differential(openPglite, runs, 'postgres', kyselyRunner));
describe('Kysely on SQLite', () => differential(openSqlite, runs, 'sqlite', kyselyRunner));
describe('Drizzle on PGlite', () => differential(openPglite, runs, 'postgres', drizzleRunner));
describe('Drizzle on SQLite', () => differential(openSqlite, runs, 'sqlite', drizzleRunner));
const typeormSqlite = typeormOn('sqlite');
describe('TypeORM on SQLite', () =>
  differential(typeormSqlite.open, runs, 'sqlite', typeormSqlite.runner));
// TypeORM has no PGlite driver.

// Built by the builder, run by listkit's runner (docs/query-builders.md): the builder's compiled
// statement in place of the planned one, through sqliteRunner / pgliteRunner / pgRunner.
describe('Kysely compiled, run by sqliteRunner', () =>
  differential(openSqlite, runs, 'sqlite', kyselyCompiledRunner));
describe('Drizzle toSQL, run by sqliteRunner', () =>
  differential(openSqlite, runs, 'sqlite', drizzleCompiledRunner));
describe('TypeORM getQueryAndParameters, run by sqliteRunner', () =>
  differential(typeormSqlite.open, runs, 'sqlite', typeormSqlite.compiled));
describe('Kysely compiled, run by pgliteRunner', () =>
  differential(openPglite, runs, 'postgres', kyselyCompiledRunner));
describe('Drizzle toSQL, run by pgliteRunner', () =>
  differential(openPglite, runs, 'postgres', drizzleCompiledRunner));

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `query builders on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    describe('Kysely', () => differential(openPostgres, runs, 'postgres', kyselyRunner));
    describe('Drizzle', () => differential(openPostgres, runs, 'postgres', drizzleRunner));
    const typeorm = typeormOn('postgres');
    describe('TypeORM', () => differential(typeorm.open, runs, 'postgres', typeorm.runner));
    describe('Kysely compiled, run by pgRunner', () =>
      differential(openPostgres, runs, 'postgres', kyselyCompiledRunner));
    describe('Drizzle toSQL, run by pgRunner', () =>
      differential(openPostgres, runs, 'postgres', drizzleCompiledRunner));
    describe('TypeORM getQueryAndParameters, run by pgRunner', () =>
      differential(typeorm.open, runs, 'postgres', typeorm.compiled));
  },
);

const noMariadb = mariadbSkipReason();
describe.skipIf(noMariadb !== undefined)(
  `query builders on a MariaDB server${noMariadb ? ` (skipped: ${noMariadb})` : ''}`,
  () => {
    describe('Kysely', () => differential(openMariadb, runs, 'mysql', kyselyRunner));
    describe('Drizzle', () => differential(openMariadb, runs, 'mysql', drizzleRunner));
    const typeorm = typeormOn('mysql');
    describe('TypeORM', () => differential(typeorm.open, runs, 'mysql', typeorm.runner));
  },
);

const noSpanner = spannerSkipReason();
describe.skipIf(noSpanner !== undefined)(
  `TypeORM on the Spanner emulator${noSpanner ? ` (skipped: ${noSpanner})` : ''}`,
  () => {
    // TypeORM's own Spanner driver; Kysely and Drizzle have no maintained Spanner dialect.
    const typeorm = typeormOn('spanner');
    differential(typeorm.open, Math.ceil(runs / 2), 'spanner', typeorm.runner);
  },
);
