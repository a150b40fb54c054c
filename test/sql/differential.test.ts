// The SQL planner against the in-memory engine (test/support/sql-properties.ts): every page listed
// through SQL must equal the in-memory Collection's page, on each engine: PGlite, SQLite and, when
// configured, a PostgreSQL server and a MariaDB server.
import { describe } from 'vitest';
import {
  mariadbSkipReason,
  openMariadb,
  openPglite,
  openPostgres,
  openSqlite,
  postgresSkipReason,
} from '../support/sql-databases.js';
import { differential, injection, RUNS } from '../support/sql-properties.js';

describe('SQL planner on PGlite', () => {
  injection(openPglite, Math.ceil(RUNS / 2));
  differential(openPglite, RUNS);
});

describe('SQL planner on SQLite', () => {
  injection(openSqlite, Math.ceil(RUNS / 2), 'sqlite');
  differential(openSqlite, RUNS, 'sqlite');
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `SQL planner on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    injection(openPostgres, Math.ceil(RUNS / 2));
    differential(openPostgres, RUNS);
  },
);

const noMariadb = mariadbSkipReason();
describe.skipIf(noMariadb !== undefined)(
  `SQL planner on a MariaDB server${noMariadb ? ` (skipped: ${noMariadb})` : ''}`,
  () => {
    injection(openMariadb, Math.ceil(RUNS / 2), 'mysql');
    differential(openMariadb, RUNS, 'mysql');
  },
);
