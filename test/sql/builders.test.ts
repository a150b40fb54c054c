// The query builders' pages (@listkit/query/kysely, /drizzle, /typeorm) pass the same
// differential properties as listFromSql with a bare runner (test/support/sql-properties.ts):
// every page equal to the in-memory Collection's, short pages under a scan budget of 1, and page
// tokens passed between the builder and a Collection both ways; on each engine each supports.
import { afterAll, describe } from 'vitest';
import { closeBuilders, drizzleRunner, kyselyRunner, typeormOn } from '../support/query-builders.js';
import {
  openPglite,
  openPostgres,
  openSqlite,
  postgresSkipReason,
} from '../support/sql-databases.js';
import { differential, RUNS } from '../support/sql-properties.js';

// A third of the runs of the bare runners' properties: the same generators, three builders.
const runs = Math.ceil(RUNS / 3);
afterAll(closeBuilders);

describe('Kysely on PGlite', () => differential(openPglite, runs, 'postgres', kyselyRunner));
describe('Kysely on SQLite', () => differential(openSqlite, runs, 'sqlite', kyselyRunner));
describe('Drizzle on PGlite', () => differential(openPglite, runs, 'postgres', drizzleRunner));
describe('Drizzle on SQLite', () => differential(openSqlite, runs, 'sqlite', drizzleRunner));
const typeormSqlite = typeormOn('sqlite');
describe('TypeORM on SQLite', () =>
  differential(typeormSqlite.open, runs, 'sqlite', typeormSqlite.runner));
// TypeORM has no PGlite driver.

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `query builders on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    describe('Kysely', () => differential(openPostgres, runs, 'postgres', kyselyRunner));
    describe('Drizzle', () => differential(openPostgres, runs, 'postgres', drizzleRunner));
    const typeorm = typeormOn('postgres');
    describe('TypeORM', () => differential(typeorm.open, runs, 'postgres', typeorm.runner));
  },
);
