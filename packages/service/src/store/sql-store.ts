import type { PageTokenCodec } from '@listkit/query';
import { listFromSql, type SqlRunner, type SqlTable } from '@listkit/query/sql';
import { StoreError } from '../core/store-error.js';
import type { SqlDatabase, SqlSession } from '../db/sql-database.js';
import { type AnalysedTable, TableStatistics } from '../db/table-statistics.js';
import { addressColumns } from '../forwarding-rules/address-columns.js';
import { clashAddressOf } from '../forwarding-rules/create/clash-rule.js';
import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import { parseStoredRule } from '../forwarding-rules/forwarding-rule-collection.js';
import { releaseAddress, takeFreeAddress } from '../forwarding-rules/sql-address-pool.js';
import { type ScopeRef, scopeOf } from '../names/scopes.js';
import type { OrderState } from '../orders/order.js';
import { migrate } from './migrations.js';
import { aggregatedRulesTable, operationsTable, placeholders, rulesTable } from './sql-tables.js';
import {
  aggregatedTokenParent,
  type EmulatorStore,
  type NewOperation,
  type OperationRecord,
  type RegionCheck,
  type RuleWrite,
  regionParent,
  type StoreListRequest,
  tokenParent,
  type WriteResult,
} from './store.js';

/**
 * Options of {@link openSqlStore}.
 *
 * @example
 * ```ts
 * const options: SqlStoreOptions = { pageTokens, listTimeoutMs: 2_000 };
 * const store = await openSqlStore(await openPgliteDatabase('/var/lib/listkit'), options);
 * ```
 */
export interface SqlStoreOptions {
  /** Processes sharing a database share the secret, so a token from one opens on another. */
  pageTokens: PageTokenCodec;
  /** Statement timeout of list calls, in ms (default 5,000). */
  listTimeoutMs?: number;
}

/** The default of {@link SqlStoreOptions.listTimeoutMs}. */
const DEFAULT_LIST_TIMEOUT_MS = 5_000;

type OperationRow = {
  resource: string;
  meta: string;
  request_id: string | null;
  done_at: string | null;
  version: number;
  parent: string;
};

/** Where an updated rule's address sat in the pools, before and after. */
type PoolMove = {
  old_kind: string | null;
  old_index: number | null;
  new_kind: string | null;
  new_index: number | null;
};

/** A rule's columns: the table's, then its address's (see `addressColumns`). */
const RULE_COLUMNS = [...rulesTable.insertColumns, 'address_key', 'pool_kind', 'pool_index'];

const OPERATION_COLUMNS = `${operationsTable.document}::text AS resource, meta::text AS meta, request_id, done_at::text AS done_at, version, parent`;

/**
 * The emulator's state in PostgreSQL (a server, or PGlite in this process), behind the same
 * contract as the memory store. What the database guarantees, the store uses: primary keys for
 * unique names, a transaction-scoped advisory lock per region for the clash rule and requestId
 * retries, conditional updates for fingerprints, operation versions and refund-once. Lists go
 * through `listFromSql` (filter, orderBy and cursor in SQL; the rest in this process). Runs the
 * migrations first.
 *
 * @example
 * ```ts
 * const store = await openSqlStore(await openPostgresDatabase({ url }), { pageTokens });
 * ```
 */
export async function openSqlStore(
  db: SqlDatabase,
  options: SqlStoreOptions,
): Promise<EmulatorStore> {
  await migrate(db);
  const statistics = await TableStatistics.open(db);
  const { pageTokens } = options;
  const tx = db.transaction.bind(db);
  /** A write transaction; once it commits, its rows count towards the tables' next analysis. */
  const writeTx = async <T>(
    tables: readonly AnalysedTable[],
    work: (session: SqlSession) => Promise<T>,
  ): Promise<T> => {
    const result = await tx(work);
    for (const table of tables) statistics.wrote(table);
    return result;
  };
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const run: SqlRunner = (statements) =>
    tx(
      async (session) => {
        let rows: Record<string, unknown>[] = [];
        for (const s of statements) rows = await session.query(s.text, s.params);
        return rows;
      },
      { statementTimeoutMs: listTimeoutMs },
    );
  const list = <T extends object>(
    table: SqlTable,
    request: StoreListRequest,
    parent: string,
    scope: Record<string, string>,
    readResource?: (json: string) => T,
  ) =>
    listFromSql<T>(
      { ...request, parent },
      {
        table,
        pageTokens,
        run,
        scope,
        statementTimeoutMs: listTimeoutMs,
        ...(readResource ? { readResource } : {}),
      },
    );

  const ruleWrite = async (
    parent: ScopeRef,
    write: RuleWrite,
    body: (session: SqlSession) => Promise<ForwardingRuleJson>,
  ): Promise<WriteResult> =>
    writeTx(['forwarding_rules', 'operations'], async (session) => {
      // Every write of a region waits for the one before: the clash rule reads the region's
      // rules, and a requestId retry must see the original's operation.
      await lockRegion(session, parent);
      if (write.requestId) {
        const earlier = await operationByRequestId(session, parent, write.requestId);
        if (earlier) return { operation: earlier, replayed: true };
      }
      const rule = await body(session);
      const operation = await insertOperation(session, parent, write.operation(rule));
      return { operation, replayed: false, rule };
    });
  /**
   * Runs a write's RegionCheck: the address first, then the check over the rules at it, read by
   * the address index. Callers decide about the name before (a 409 takes no address).
   */
  const checked = async (
    session: SqlSession,
    parent: ScopeRef,
    rule: ForwardingRuleJson,
    check: RegionCheck | undefined,
  ): Promise<ForwardingRuleJson> => {
    if (!check) return rule;
    let candidate = rule;
    if (check.allocate && rule.IPAddress === undefined) {
      const address = await takeFreeAddress(
        session,
        regionParent(parent),
        check.allocate,
        parent.region,
      );
      candidate = { ...rule, IPAddress: address };
    }
    const address = clashAddressOf(candidate);
    const sameAddress =
      address === undefined
        ? []
        : (
            await session.query<{ resource: string }>(
              `SELECT ${rulesTable.document}::text AS resource FROM forwarding_rules
WHERE parent = $1 AND address_key = $2 AND "name" <> $3`,
              [regionParent(parent), address, rule.name],
            )
          ).map((r) => JSON.parse(r.resource) as ForwardingRuleJson);
    return check.check(candidate, sameAddress);
  };
  const ruleExists = (parent: ScopeRef, name: string) =>
    new StoreError(
      'already_exists',
      `The resource '${regionParent(parent)}/forwardingRules/${name}' already exists`,
    );
  const ruleMissing = (parent: ScopeRef, name: string) =>
    new StoreError(
      'not_found',
      `The resource '${regionParent(parent)}/forwardingRules/${name}' was not found`,
    );

  return {
    kind: db.kind,
    rules: {
      insert: (parent, rule, write) =>
        ruleWrite(parent, write, async (session) => {
          if (write.check?.allocate && rule.IPAddress === undefined) {
            // A name in use is a 409 before any address is taken (and the pool's quota).
            const taken = await session.query(
              'SELECT 1 AS taken FROM forwarding_rules WHERE parent = $1 AND "name" = $2',
              [regionParent(parent), rule.name],
            );
            if (taken.length > 0) throw ruleExists(parent, rule.name);
          }
          const stored = await checked(session, parent, rule, write.check);
          const row = [...rulesTable.row(stored), ...addressColumns(stored.IPAddress)];
          const inserted = await session.query(
            `INSERT INTO forwarding_rules (parent, project, ${RULE_COLUMNS.join(', ')})
VALUES (${placeholders(row.length + 2)}) ON CONFLICT (parent, "name") DO NOTHING RETURNING 1 AS ok`,
            [regionParent(parent), parent.project, ...row],
          );
          if (inserted.length === 0) throw ruleExists(parent, rule.name);
          return stored;
        }),
      get: (parent, name) =>
        tx(async (session) => {
          const rows = await session.query<{ resource: string }>(
            `SELECT ${rulesTable.document}::text AS resource FROM forwarding_rules WHERE parent = $1 AND "name" = $2`,
            [regionParent(parent), name],
          );
          return rows[0] ? (JSON.parse(rows[0].resource) as ForwardingRuleJson) : undefined;
        }),
      update: (parent, rule, write) =>
        ruleWrite(parent, write, async (session) => {
          const stored = await checked(session, parent, rule, write.check);
          const row = [...rulesTable.row(stored), ...addressColumns(stored.IPAddress)];
          // RETURNING reads the new row; the FROM item keeps the old pool position.
          const updated = await session.query<PoolMove>(
            `UPDATE forwarding_rules AS f SET (${RULE_COLUMNS.join(', ')}) = (${placeholders(row.length, 4)})
FROM (SELECT pool_kind, pool_index FROM forwarding_rules WHERE parent = $1 AND "name" = $2) AS old
WHERE f.parent = $1 AND f."name" = $2 AND f.fingerprint = $3
RETURNING old.pool_kind AS old_kind, old.pool_index AS old_index, f.pool_kind AS new_kind, f.pool_index AS new_index`,
            [regionParent(parent), rule.name, write.expectedFingerprint, ...row],
          );
          const moved = updated[0];
          if (
            moved?.old_kind &&
            moved.old_index !== null &&
            (moved.old_kind !== moved.new_kind ||
              Number(moved.old_index) !== Number(moved.new_index))
          ) {
            await releaseAddress(
              session,
              regionParent(parent),
              moved.old_kind,
              Number(moved.old_index),
            );
          }
          if (updated.length === 0) {
            const current = await session.query<{ fingerprint: string }>(
              'SELECT fingerprint FROM forwarding_rules WHERE parent = $1 AND "name" = $2',
              [regionParent(parent), rule.name],
            );
            if (!current[0]) throw ruleMissing(parent, rule.name);
            throw new StoreError(
              'condition_failed',
              `the fingerprint of ${rule.name} is ${current[0].fingerprint}, not ${write.expectedFingerprint}`,
            );
          }
          return stored;
        }),
      put: (parent, rule, check) =>
        writeTx(['forwarding_rules'], async (session) => {
          await lockRegion(session, parent);
          // The version replaced goes first and gives up its address: the new one may take it.
          await deleteRule(session, parent, rule.name);
          const stored = await checked(session, parent, rule, check);
          const row = [...rulesTable.row(stored), ...addressColumns(stored.IPAddress)];
          await session.query(
            `INSERT INTO forwarding_rules (parent, project, ${RULE_COLUMNS.join(', ')})
VALUES (${placeholders(row.length + 2)})`,
            [regionParent(parent), parent.project, ...row],
          );
        }),
      delete: (parent, name, write) =>
        ruleWrite(parent, write, async (session) => {
          const gone = await deleteRule(session, parent, name);
          if (!gone) throw ruleMissing(parent, name);
          return gone;
        }),
      list: (parent, request) =>
        list(
          rulesTable,
          request,
          tokenParent(parent, 'forwardingRules'),
          { parent: regionParent(parent) },
          // The page is written from the rows' JSON text (ruleJsonBytes), not re-serialised.
          parseStoredRule,
        ),
      listAggregated: (project, request) =>
        list(aggregatedRulesTable, request, aggregatedTokenParent(project), { project }),
      all: () =>
        tx(async (session) => {
          const rows = await session.query<{ parent: string; resource: string }>(
            `SELECT parent, ${rulesTable.document}::text AS resource FROM forwarding_rules ORDER BY parent, "name"`,
          );
          return rows.map((r) => ({
            ...refOf(r.parent),
            rule: JSON.parse(r.resource) as ForwardingRuleJson,
          }));
        }),
    },
    operations: {
      insert: (parent, added) =>
        writeTx(['operations'], (session) => insertOperation(session, parent, added)),
      get: (parent, name) =>
        tx(async (session) => {
          const rows = await session.query<OperationRow>(
            `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND "name" = $2`,
            [regionParent(parent), name],
          );
          return rows[0] ? operationRecord(rows[0]) : undefined;
        }),
      byRequestId: (parent, requestId) =>
        tx((session) => operationByRequestId(session, parent, requestId)),
      update: (record) =>
        writeTx(['operations'], async (session) => {
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
            [regionParent(record), record.operation.name, record.version, ...values],
          );
          if (updated.length === 0) {
            const current = await session.query<{ version: number }>(
              'SELECT version FROM operations WHERE parent = $1 AND "name" = $2',
              [regionParent(record), record.operation.name],
            );
            if (!current[0]) {
              throw new StoreError(
                'not_found',
                `operation ${record.operation.name} does not exist`,
              );
            }
            throw new StoreError(
              'condition_failed',
              `operation ${record.operation.name} changed (version ${current[0].version}, not ${record.version})`,
            );
          }
          return { ...structuredClone(record), version: record.version + 1 };
        }),
      delete: (parent, name) =>
        writeTx(['operations'], async (session) => {
          const rows = await session.query(
            'DELETE FROM operations WHERE parent = $1 AND "name" = $2 RETURNING 1 AS ok',
            [regionParent(parent), name],
          );
          return rows.length > 0;
        }),
      running: (parent) =>
        tx(async (session) =>
          (
            await session.query<OperationRow>(
              `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND done_at IS NULL ORDER BY "name"`,
              [regionParent(parent)],
            )
          ).map(operationRecord),
        ),
      list: (parent, request) =>
        list(operationsTable, request, tokenParent(parent, 'operations'), {
          parent: regionParent(parent),
        }),
      expire: async ({ doneBefore, keep, keepRunning }) => {
        const expired = await tx(async (session) => {
          const old = await session.query(
            'DELETE FROM operations WHERE done_at < $1 RETURNING 1 AS ok',
            [String(Math.floor(doneBefore))],
          );
          const surplus = await session.query(
            `DELETE FROM operations WHERE (parent, "name") IN (
  SELECT parent, "name" FROM operations WHERE done_at IS NOT NULL
  ORDER BY done_at DESC, parent DESC, "name" DESC OFFSET $1
) RETURNING 1 AS ok`,
            [String(Math.max(0, Math.floor(keep)))],
          );
          const running =
            keepRunning === undefined
              ? []
              : await session.query(
                  `DELETE FROM operations WHERE (parent, "name") IN (
  SELECT parent, "name" FROM operations WHERE done_at IS NULL
  ORDER BY ${operationsTable.document}->>'startTime' DESC, parent DESC, "name" DESC OFFSET $1
) RETURNING 1 AS ok`,
                  [String(Math.max(0, Math.floor(keepRunning)))],
                );
          return old.length + surplus.length + running.length;
        });
        statistics.wrote('operations', expired);
        return expired;
      },
      all: () =>
        tx(async (session) =>
          (
            await session.query<OperationRow>(
              `SELECT ${OPERATION_COLUMNS} FROM operations ORDER BY parent, "name"`,
            )
          ).map(operationRecord),
        ),
    },
    orders: {
      put: (order) =>
        tx(async (session) => {
          await session.query(
            `INSERT INTO orders (package_name, order_id, state, refunded) VALUES ($1, $2, $3, $4)
ON CONFLICT (package_name, order_id) DO UPDATE SET state = EXCLUDED.state, refunded = EXCLUDED.refunded`,
            [order.packageName, order.orderId, JSON.stringify(order), order.refund !== undefined],
          );
        }),
      get: (packageName, orderId) =>
        tx(async (session) => {
          const rows = await session.query<{ state: string }>(
            'SELECT state::text AS state FROM orders WHERE package_name = $1 AND order_id = $2',
            [packageName, orderId],
          );
          return rows[0] ? (JSON.parse(rows[0].state) as OrderState) : undefined;
        }),
      refund: (refunded) =>
        tx(async (session) => {
          // Conditional: of concurrent refunds (in any process) exactly one finds refunded false.
          const rows = await session.query(
            `UPDATE orders SET state = $3, refunded = true
WHERE package_name = $1 AND order_id = $2 AND NOT refunded RETURNING 1 AS ok`,
            [refunded.packageName, refunded.orderId, JSON.stringify(refunded)],
          );
          if (rows.length > 0) return structuredClone(refunded);
          const current = await session.query<{ time: string | null }>(
            `SELECT state->'refund'->>'time' AS time FROM orders WHERE package_name = $1 AND order_id = $2`,
            [refunded.packageName, refunded.orderId],
          );
          if (!current[0]) {
            throw new StoreError('not_found', `order ${refunded.orderId} does not exist`);
          }
          throw new StoreError(
            'already_refunded',
            `order ${refunded.orderId} was refunded at ${current[0].time}`,
          );
        }),
      all: () =>
        tx(async (session) =>
          (
            await session.query<{ state: string }>(
              'SELECT state::text AS state FROM orders ORDER BY package_name, order_id',
            )
          ).map((r) => JSON.parse(r.state) as OrderState),
        ),
    },
    state: {
      get: <T>(key: string) =>
        tx(async (session) => {
          const rows = await session.query<{ value: string }>(
            'SELECT value::text AS value FROM emulator_settings WHERE key = $1',
            [key],
          );
          return rows[0] ? (JSON.parse(rows[0].value) as T) : undefined;
        }),
      set: (key, value) =>
        tx(async (session) => {
          await session.query(
            `INSERT INTO emulator_settings (key, value) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
            [key, JSON.stringify(value)],
          );
        }),
      appendRequest: (entry, capacity) =>
        tx(async (session) => {
          const rows = await session.query<{ seq: string }>(
            'INSERT INTO request_log (entry) VALUES ($1) RETURNING seq::text AS seq',
            [JSON.stringify(entry)],
          );
          await session.query('DELETE FROM request_log WHERE seq <= $1::bigint - $2::bigint', [
            rows[0]!.seq,
            String(Math.max(0, Math.floor(capacity))),
          ]);
        }),
      requests: () =>
        tx(async (session) =>
          (
            await session.query<{ entry: string }>(
              'SELECT entry::text AS entry FROM request_log ORDER BY seq',
            )
          ).map((r) => JSON.parse(r.entry) as Record<string, unknown>),
        ),
    },
    reset: () =>
      tx(async (session) => {
        await session.query(
          'TRUNCATE forwarding_rules, address_pool_cursors, address_pool_freed, operations, orders, emulator_settings, request_log',
        );
      }),
    close: async () => {
      await statistics.settled();
      await db.close();
    },
  };
}

/**
 * Serialises the writes of a region until the transaction ends (in every process on the
 * database): the clash rule and address allocation read the region, and a requestId retry must
 * see the original's operation.
 */
async function lockRegion(session: SqlSession, parent: ScopeRef): Promise<void> {
  await session.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    regionParent(parent),
  ]);
}

/**
 * Deletes a rule of the region, releasing its ephemeral address; the rule deleted, or undefined
 * when there was none. Call under the region's transaction lock.
 */
async function deleteRule(
  session: SqlSession,
  parent: ScopeRef,
  name: string,
): Promise<ForwardingRuleJson | undefined> {
  const deleted = await session.query<{
    resource: string;
    pool_kind: string | null;
    pool_index: number | null;
  }>(
    `DELETE FROM forwarding_rules WHERE parent = $1 AND "name" = $2
RETURNING ${rulesTable.document}::text AS resource, pool_kind, pool_index`,
    [regionParent(parent), name],
  );
  const gone = deleted[0];
  if (!gone) return undefined;
  if (gone.pool_kind !== null && gone.pool_index !== null) {
    await releaseAddress(session, regionParent(parent), gone.pool_kind, Number(gone.pool_index));
  }
  return JSON.parse(gone.resource) as ForwardingRuleJson;
}

async function insertOperation(
  session: SqlSession,
  parent: ScopeRef,
  added: NewOperation,
): Promise<OperationRecord> {
  const row = operationsTable.row(added.operation);
  const values = [
    regionParent(parent),
    ...row,
    JSON.stringify(added.meta),
    added.requestId ?? null,
    added.doneAt === undefined ? null : String(added.doneAt),
    '1',
  ];
  await session.query(
    `INSERT INTO operations (parent, ${operationsTable.insertColumns.join(', ')}, meta, request_id, done_at, version)
VALUES (${placeholders(values.length)})`,
    values,
  );
  return { ...structuredClone(added), ...parent, version: 1 };
}

async function operationByRequestId(
  session: SqlSession,
  parent: ScopeRef,
  requestId: string,
): Promise<OperationRecord | undefined> {
  const rows = await session.query<OperationRow>(
    `SELECT ${OPERATION_COLUMNS} FROM operations WHERE parent = $1 AND request_id = $2`,
    [regionParent(parent), requestId],
  );
  return rows[0] ? operationRecord(rows[0]) : undefined;
}

function operationRecord(row: OperationRow): OperationRecord {
  return {
    ...refOf(row.parent),
    operation: JSON.parse(row.resource),
    meta: JSON.parse(row.meta),
    ...(row.request_id === null ? {} : { requestId: row.request_id }),
    ...(row.done_at === null ? {} : { doneAt: Number(row.done_at) }),
    version: Number(row.version),
  };
}

/** `projects/p/regions/r` → `{ project: 'p', region: 'r' }`; `projects/p/global` → `{ project: 'p' }`. */
const refOf = (parent: string): ScopeRef => scopeOf(parent);
