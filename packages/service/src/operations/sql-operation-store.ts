import { Refusal } from '../core/refusal.js';
import { insertRows } from '../db/sql-bulk-insert.js';
import type { SqlBatchStatement, SqlSession } from '../db/sql-database.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import { placeholders } from '../db/sql-text.js';
import { type ScopeRef, scopeParent, scopeRefOf, tokenParent } from '../names/resource-names.js';
import type { NewOperation, OperationRecord, OperationStore } from './operation-store.js';
import { operationsTable } from './sql-operation-table.js';

type OperationRow = {
  resource: string;
  meta: string;
  request_id: string | null;
  done_at: string | null;
  version: number;
  parent: string;
};

const OPERATION_COLUMNS = `${operationsTable.document}::text AS resource, meta::text AS meta, request_id, done_at::text AS done_at, version, parent`;

/**
 * Regional operations in PostgreSQL: conditional updates by version, a unique requestId per
 * region, and expiry by completion time. The forwarding-rule store records a write's operation
 * in its own transaction with {@link insertOperation}.
 *
 * @example
 * ```ts
 * const operations = sqlOperationStore(sqlStoreContext(db, statistics, { pageTokens }));
 * ```
 */
export function sqlOperationStore(sql: SqlStoreContext): OperationStore {
  const { tx, writeTx } = sql;
  return {
    insert: (parent, added) =>
      writeTx(['operations'], (session) => insertOperation(session, parent, added)),
    get: (parent, name) =>
      tx(async (session) => {
        const rows = await session.query<OperationRow>(
          `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND "name" = $2`,
          [scopeParent(parent), name],
        );
        return rows[0] ? operationRecord(rows[0]) : undefined;
      }),
    byRequestId: (parent, requestId) =>
      tx((session) => operationByRequestId(session, parent, requestId)),
    update: (record) => writeTx(['operations'], (session) => updateOperation(session, record)),
    delete: (parent, name) =>
      writeTx(['operations'], async (session) => {
        const rows = await session.query(
          'DELETE FROM operations WHERE parent = $1 AND "name" = $2 RETURNING 1 AS ok',
          [scopeParent(parent), name],
        );
        return rows.length > 0;
      }),
    running: (parent) =>
      tx(async (session) =>
        (
          await session.query<OperationRow>(
            `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND done_at IS NULL ORDER BY "name"`,
            [scopeParent(parent)],
          )
        ).map(operationRecord),
      ),
    list: (parent, request) =>
      sql.list(operationsTable, request, tokenParent(parent, 'operations'), {
        parent: scopeParent(parent),
      }),
    expire: async (retention) => {
      // One statement, one round trip: the sweep runs after most writes and reads.
      const [row] = await sql.statement<{ expired: string }>(...expireStatement(retention));
      const expired = Number(row?.expired ?? 0);
      sql.wrote('operations', expired);
      return expired;
    },
    all: () => tx(readOperationRecords),
  };
}

/**
 * Records an operation in the caller's transaction (a rule write records its operation so).
 *
 * @example
 * ```ts
 * const operation = await insertOperation(session, parent, write.operation(rule));
 * ```
 */
export async function insertOperation(
  session: SqlSession,
  parent: ScopeRef,
  added: NewOperation,
): Promise<OperationRecord> {
  const { columns, values } = operationInsert(parent, added);
  await session.query(
    `INSERT INTO operations (${columns}) VALUES (${placeholders(values.length)})`,
    values,
  );
  return recordOf(parent, added);
}

/**
 * The columns and values of an operation's row, for an INSERT of the caller's (a rule insert
 * and its operation go as one statement).
 *
 * @example
 * ```ts
 * const { columns, values } = operationInsert(parent, write.operation(rule));
 * ```
 */
export function operationInsert(
  parent: ScopeRef,
  added: NewOperation,
): { columns: string; values: (string | null)[] } {
  const values = [
    scopeParent(parent),
    ...operationsTable.row(added.operation),
    JSON.stringify(added.meta),
    added.requestId ?? null,
    added.doneAt === undefined ? null : String(added.doneAt),
    '1',
  ];
  const columns = `parent, ${operationsTable.insertColumns.join(', ')}, meta, request_id, done_at, version`;
  return { columns, values };
}

/**
 * Every operation, read in the caller's transaction (a snapshot's).
 *
 * @example
 * ```ts
 * const operations = await readOperationRecords(session);
 * ```
 */
export async function readOperationRecords(session: SqlSession): Promise<OperationRecord[]> {
  const rows = await session.query<OperationRow>(
    `SELECT ${OPERATION_COLUMNS} FROM operations ORDER BY parent, "name"`,
  );
  return rows.map(operationRecord);
}

/**
 * Writes operations as given, versions kept, into a table the caller emptied (a restore's), or
 * with `snapshot` among that snapshot's rows.
 *
 * @example
 * ```ts
 * await writeOperationRecords(session, image.operations);
 * ```
 */
export async function writeOperationRecords(
  session: SqlSession,
  records: readonly OperationRecord[],
  snapshot?: string,
): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map(({ project, region, version, ...added }) => {
    const { values } = operationInsert(
      region === undefined ? { project } : { project, region },
      added,
    );
    return [...values.slice(0, -1), String(version)];
  });
  const { columns } = operationInsert(records[0]!, records[0]!);
  await insertRows(session, 'operations', columns.split(', '), rows, snapshot);
}

/** The record of an operation just inserted (version 1). */
export const recordOf = (parent: ScopeRef, added: NewOperation): OperationRecord => ({
  ...structuredClone(added),
  ...parent,
  version: 1,
});

/**
 * The statement that reads the operation recorded in the region with this requestId (its row for
 * {@link operationRecord}), for a batch that sends it with other statements.
 *
 * @example
 * ```ts
 * const [, [earlier]] = await tx.send([lock, operationByRequestIdStatement(parent, requestId)]);
 * ```
 */
export function operationByRequestIdStatement(
  parent: ScopeRef,
  requestId: string,
): SqlBatchStatement {
  return {
    text: `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND request_id = $2`,
    params: [scopeParent(parent), requestId],
  };
}

/**
 * The operation recorded in the region with this requestId, read in the caller's transaction.
 *
 * @example
 * ```ts
 * const earlier = await operationByRequestId(session, parent, write.requestId);
 * ```
 */
export async function operationByRequestId(
  session: SqlSession,
  parent: ScopeRef,
  requestId: string,
): Promise<OperationRecord | undefined> {
  const { text, params } = operationByRequestIdStatement(parent, requestId);
  const rows = await session.query<OperationRow>(text, params as string[]);
  return rows[0] ? operationRecord(rows[0]) : undefined;
}

async function updateOperation(
  session: SqlSession,
  record: OperationRecord,
): Promise<OperationRecord> {
  const row = operationsTable.row(record.operation);
  const columns = [...operationsTable.insertColumns, 'meta', 'done_at', 'version'];
  const values = [
    ...row,
    JSON.stringify(record.meta),
    record.doneAt === undefined ? null : String(record.doneAt),
    String(record.version + 1),
  ];
  const updated = await session.query(
    `UPDATE operations SET (${columns.join(', ')}) = (${placeholders(values.length, 4)})
WHERE parent = $1 AND "name" = $2 AND version = $3 RETURNING 1 AS ok`,
    [scopeParent(record), record.operation.name, record.version, ...values],
  );
  if (updated.length === 0) {
    const current = await session.query<{ version: number }>(
      'SELECT version FROM operations WHERE parent = $1 AND "name" = $2',
      [scopeParent(record), record.operation.name],
    );
    if (!current[0]) {
      throw new Refusal('not_found', `operation ${record.operation.name} does not exist`);
    }
    throw new Refusal(
      'condition_failed',
      `operation ${record.operation.name} changed (version ${current[0].version}, not ${record.version})`,
    );
  }
  return { ...structuredClone(record), version: record.version + 1 };
}

/**
 * The retention sweep as one statement: the done operations completed before `doneBefore`, the
 * oldest done ones beyond `keep` among the rest, and (with `keepRunning`) the oldest running
 * ones beyond it. The deletes share one snapshot, so the count keeps the done operations not
 * already dropped by age (`done_at >= doneBefore`), as three statements in a row would; the three
 * sets are disjoint.
 */
function expireStatement({
  doneBefore,
  keep,
  keepRunning,
}: {
  doneBefore: number;
  keep: number;
  keepRunning?: number;
}): [string, string[]] {
  const params = [String(Math.floor(doneBefore)), String(Math.max(0, Math.floor(keep)))];
  const running =
    keepRunning === undefined
      ? ''
      : `, running AS (
  DELETE FROM operations WHERE (parent, "name") IN (
    SELECT parent, "name" FROM operations WHERE done_at IS NULL
    ORDER BY ${operationsTable.document}->>'startTime' DESC, parent DESC, "name" DESC OFFSET $3
  ) RETURNING 1 AS ok
)`;
  if (keepRunning !== undefined) params.push(String(Math.max(0, Math.floor(keepRunning))));
  const text = `WITH old AS (
  DELETE FROM operations WHERE done_at < $1 RETURNING 1 AS ok
), surplus AS (
  DELETE FROM operations WHERE (parent, "name") IN (
    SELECT parent, "name" FROM operations WHERE done_at >= $1
    ORDER BY done_at DESC, parent DESC, "name" DESC OFFSET $2
  ) RETURNING 1 AS ok
)${running}
SELECT ((SELECT count(*) FROM old) + (SELECT count(*) FROM surplus)${
    keepRunning === undefined ? '' : ' + (SELECT count(*) FROM running)'
  })::text AS expired`;
  return [text, params];
}

/**
 * An operation's record from its row as {@link operationByRequestIdStatement} reads it.
 *
 * @example
 * ```ts
 * const earlier = row ? operationRecord(row) : undefined;
 * ```
 */
export function operationRecord(read: Record<string, unknown>): OperationRecord {
  const row = read as OperationRow;
  return {
    ...scopeRefOf(row.parent),
    operation: JSON.parse(row.resource),
    meta: JSON.parse(row.meta),
    ...(row.request_id === null ? {} : { requestId: row.request_id }),
    ...(row.done_at === null ? {} : { doneAt: Number(row.done_at) }),
    version: Number(row.version),
  };
}
