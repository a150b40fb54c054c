// The Cloud Spanner emulator as a test database: SPANNER_EMULATOR_HOST names it
// (.ci/with-spanner.sh starts one); each open() creates its own database in one instance, and
// close() deletes it. The emulator runs one read-write transaction at a time: writes here wait
// their turn (one queue per process) and the client retries an aborted one.
import { type Database, Spanner } from '@google-cloud/spanner';
import { type SqlTable, spannerRunner, sqlDialect } from '@listkit/query/sql';
import type { TestDatabase } from './sql-databases.js';

// The client's multiplexed sessions fail against the emulator ("Unable to release unknown
// resource"); pooled sessions work.
process.env.GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS ??= 'false';

const PROJECT = process.env.LISTKIT_SPANNER_PROJECT ?? 'listkit-test';
const INSTANCE = process.env.LISTKIT_SPANNER_INSTANCE ?? 'listkit';

/** Why Spanner tests are skipped, or undefined when an emulator is configured. */
export function spannerSkipReason(): string | undefined {
  if (process.env.SPANNER_EMULATOR_HOST) return undefined;
  const reason =
    'no Spanner emulator configured: set SPANNER_EMULATOR_HOST (or run under .ci/with-spanner.sh)';
  if (process.env.LISTKIT_REQUIRE_SPANNER === '1') {
    throw new Error(`LISTKIT_REQUIRE_SPANNER=1 but ${reason}`);
  }
  return reason;
}

let client: Spanner | undefined;
let queue: Promise<unknown> = Promise.resolve();
/** Writes and schema changes, one at a time (the emulator's one read-write transaction). */
function serial<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

async function instance() {
  client ??= new Spanner({ projectId: PROJECT });
  const found = client.instance(INSTANCE);
  const [exists] = await found.exists();
  if (!exists) {
    await serial(async () => {
      const [again] = await found.exists();
      if (again) return;
      const [, operation] = await client!.createInstance(INSTANCE, {
        config: 'emulator-config',
        nodes: 1,
        displayName: 'listkit tests',
      });
      await operation.promise();
    }).catch(async (error) => {
      // Another test file created it first.
      if (!(await found.exists())[0]) throw error;
    });
  }
  return found;
}

let databases = 0;

/** A fresh database on the emulator. */
export async function openSpanner(): Promise<TestDatabase & { database: Database }> {
  const owner = await instance();
  const id = `t${process.pid}x${++databases}x${Date.now().toString(36)}`.slice(0, 30);
  const database = await serial(async () => {
    const [created, operation] = await owner.createDatabase(id);
    await operation.promise();
    return created;
  });
  const dialect = sqlDialect('spanner');
  const ddl = (statements: string[]) =>
    serial(async () => {
      const [operation] = await database.updateSchema(statements);
      await operation.promise();
    });
  const write = (statements: { sql: string; params: Record<string, string | null> }[]) =>
    serial(() =>
      database.runTransactionAsync(async (tx) => {
        const withTypes = statements.map((s) => ({
          ...s,
          types: Object.fromEntries(Object.keys(s.params).map((k) => [k, 'string' as const])),
        }));
        // In batches with a generous deadline: one call of 400 inserts passed the client's
        // default 30 s on a loaded machine.
        for (let i = 0; i < withTypes.length; i += 50) {
          await tx.batchUpdate(withTypes.slice(i, i + 50), { gaxOptions: { timeout: 300_000 } });
        }
        await tx.commit();
      }),
    );
  const named = (text: string, params: readonly (string | null)[]) => {
    const s = dialect.finish({ text, params });
    return {
      sql: s.text,
      params: Object.fromEntries(s.params.map((v, i) => [`p${i + 1}`, v])),
    };
  };
  const run = spannerRunner(database as never, { timeoutMs: 60_000 });
  return {
    name: 'Spanner emulator',
    dialect: 'spanner',
    database,
    exec: async (sql) => {
      const drop = /^DROP TABLE IF EXISTS (\S+)$/.exec(sql.trim());
      if (drop) return dropTable(database, drop[1]!, ddl);
      if (/^\s*(CREATE|DROP|ALTER)\b/i.test(sql)) return ddl([sql]);
      await write([{ sql, params: {} }]);
    },
    query: async (text, params = []) => {
      const statement = named(text, params);
      if (/^\s*(INSERT|UPDATE|DELETE)\b/i.test(text)) {
        await write([statement]);
        return [];
      }
      const types = Object.fromEntries(Object.keys(statement.params).map((k) => [k, 'string']));
      const [rows] = await database.run({ ...statement, types, json: true });
      return rows as Record<string, unknown>[];
    },
    load: async (table: SqlTable, resources: object[]) => {
      const inserts = resources.map((r) => {
        const s = table.insert(r);
        return {
          sql: s.text,
          params: Object.fromEntries(s.params.map((v, i) => [`p${i + 1}`, v])),
        };
      });
      await write([{ sql: `DELETE FROM ${table.name} WHERE TRUE`, params: {} }, ...inserts]);
    },
    writeAll: (statements) => write(statements.map((s) => named(s.text, s.params))),
    run,
    runOneQuery: run,
    close: async () => {
      await serial(() => database.delete()).catch(() => undefined);
      database.close();
    },
    driver: database,
  };
}

/** DROP TABLE IF EXISTS, its indexes first (Spanner refuses to drop a table with indexes). */
async function dropTable(
  database: Database,
  quoted: string,
  ddl: (statements: string[]) => Promise<void>,
): Promise<void> {
  const name = quoted.replace(/^`|`$/g, '');
  const [indexes] = await database.run({
    sql: `SELECT INDEX_NAME FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_NAME = @t AND INDEX_TYPE = 'INDEX'`,
    params: { t: name },
    json: true,
  });
  const [tables] = await database.run({
    sql: `SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = @t`,
    params: { t: name },
    json: true,
  });
  const statements = (indexes as { INDEX_NAME: string }[]).map(
    (i) => `DROP INDEX \`${i.INDEX_NAME}\``,
  );
  if (tables.length > 0) statements.push(`DROP TABLE ${quoted}`);
  if (statements.length > 0) await ddl(statements);
}
