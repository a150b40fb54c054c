import { resourceNotFound } from '../core/compute-refusals.js';
import { Refusal } from '../core/refusal.js';
import type { SqlSession } from '../db/sql-database.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import { placeholders } from '../db/sql-text.js';
import {
  aggregatedTokenParent,
  type ScopeRef,
  scopedName,
  scopeParent,
  tokenParent,
} from '../names/resource-names.js';
import { insertOperation, operationByRequestId } from '../operations/sql-operation-store.js';
import { addressColumns } from './addresses/address-columns.js';
import { releaseAddress, takeFreeAddress } from './addresses/sql-address-pool.js';
import { clashAddressOf } from './create/clash-rule.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { parseStoredRule } from './forwarding-rule-collection.js';
import type {
  ForwardingRuleStore,
  RuleWrite,
  ScopeCheck,
  WriteResult,
} from './forwarding-rule-store.js';
import { sqlRuleInsert } from './sql-insert-batches.js';
import { deleteRuleBatched } from './sql-rule-delete.js';
import { readRuleEntries } from './sql-rule-image.js';
import { scopeLock } from './sql-rule-insert.js';
import {
  aggregatedRulesTable,
  RULE_COLUMNS,
  rulesAtAddress,
  rulesTable,
} from './sql-rule-tables.js';

/** Where an updated rule's address sat in the pools, before and after. */
type PoolMove = {
  old_kind: string | null;
  old_index: number | null;
  new_kind: string | null;
  new_index: number | null;
};

const ruleName = (parent: ScopeRef, name: string) => scopedName(parent, 'forwardingRules', name);

/**
 * Forwarding rules in PostgreSQL: primary keys for unique names, a transaction-scoped advisory
 * lock per region for the clash rule, address allocation and requestId retries, and conditional
 * updates for fingerprints. Every write records its operation in the same transaction.
 *
 * @example
 * ```ts
 * const rules = sqlForwardingRuleStore(sqlStoreContext(db, statistics, { pageTokens }));
 * ```
 */
export function sqlForwardingRuleStore(sql: SqlStoreContext): ForwardingRuleStore {
  const { tx } = sql;
  const insert = sqlRuleInsert(sql);
  // `body` writes the rule and returns it; its operation is inserted after it. (Inserts and
  // deletes are batched transactions of their own: sql-insert-batches.ts, sql-rule-delete.ts.)
  const ruleWrite = (
    parent: ScopeRef,
    write: RuleWrite,
    body: (session: SqlSession) => Promise<ForwardingRuleJson>,
  ): Promise<WriteResult> =>
    sql.writeTx(['forwarding_rules', 'operations'], async (session) => {
      // Every write of a region waits for the one before: the clash rule reads the region's
      // rules, and a requestId retry must see the original's operation.
      await lockScope(session, parent);
      if (write.requestId) {
        const earlier = await operationByRequestId(session, parent, write.requestId);
        if (earlier) return { operation: earlier, replayed: true };
      }
      const rule = await body(session);
      return {
        operation: await insertOperation(session, parent, write.operation(rule)),
        replayed: false,
        rule,
      };
    });
  return {
    insert,
    get: (parent, name) =>
      tx(async (session) => {
        const rows = await session.query<{ resource: string }>(
          `SELECT ${rulesTable.document}::text AS resource FROM forwarding_rules WHERE parent = $1 AND "name" = $2`,
          [scopeParent(parent), name],
        );
        return rows[0] ? (JSON.parse(rows[0].resource) as ForwardingRuleJson) : undefined;
      }),
    update: (parent, rule, write) =>
      ruleWrite(parent, write, (session) => updateRule(session, parent, rule, write)),
    put: (parent, rule, check) =>
      sql.writeTx(['forwarding_rules'], async (session) => {
        await lockScope(session, parent);
        // The version replaced goes first and gives up its address: the new one may take it.
        await deleteRule(session, parent, rule.name);
        const stored = await checked(session, parent, rule, check);
        const row = [...rulesTable.row(stored), ...addressColumns(stored.IPAddress)];
        await session.query(
          `INSERT INTO forwarding_rules (parent, project, ${RULE_COLUMNS.join(', ')})
VALUES (${placeholders(row.length + 2)})`,
          [scopeParent(parent), parent.project, ...row],
        );
      }),
    delete: (parent, name, write) => deleteRuleBatched(sql, parent, name, write),
    list: (parent, request) =>
      sql.list(
        rulesTable,
        request,
        tokenParent(parent, 'forwardingRules'),
        { parent: scopeParent(parent) },
        // The page is written from the rows' JSON text (ruleListEntryBytes), not re-serialised.
        parseStoredRule,
      ),
    listAggregated: (project, request) =>
      sql.list(aggregatedRulesTable, request, aggregatedTokenParent(project), { project }),
    all: () => tx(readRuleEntries),
  };
}

async function updateRule(
  session: SqlSession,
  parent: ScopeRef,
  rule: ForwardingRuleJson,
  write: { expectedFingerprint: string; check?: ScopeCheck },
): Promise<ForwardingRuleJson> {
  const stored = await checked(session, parent, rule, write.check);
  const row = [...rulesTable.row(stored), ...addressColumns(stored.IPAddress)];
  // RETURNING reads the new row; the FROM item keeps the old pool position.
  const updated = await session.query<PoolMove>(
    `UPDATE forwarding_rules AS f SET (${RULE_COLUMNS.join(', ')}) = (${placeholders(row.length, 4)})
FROM (SELECT pool_kind, pool_index FROM forwarding_rules WHERE parent = $1 AND "name" = $2) AS old
WHERE f.parent = $1 AND f."name" = $2 AND f.fingerprint = $3
RETURNING old.pool_kind AS old_kind, old.pool_index AS old_index, f.pool_kind AS new_kind, f.pool_index AS new_index`,
    [scopeParent(parent), rule.name, write.expectedFingerprint, ...row],
  );
  const moved = updated[0];
  if (
    moved?.old_kind &&
    moved.old_index !== null &&
    (moved.old_kind !== moved.new_kind || Number(moved.old_index) !== Number(moved.new_index))
  ) {
    await releaseAddress(session, scopeParent(parent), moved.old_kind, Number(moved.old_index));
  }
  if (updated.length === 0) {
    const current = await session.query<{ fingerprint: string }>(
      'SELECT fingerprint FROM forwarding_rules WHERE parent = $1 AND "name" = $2',
      [scopeParent(parent), rule.name],
    );
    if (!current[0]) throw resourceNotFound(ruleName(parent, rule.name));
    throw new Refusal(
      'condition_failed',
      `the fingerprint of ${rule.name} is ${current[0].fingerprint}, not ${write.expectedFingerprint}`,
    );
  }
  return stored;
}

/**
 * Runs a write's ScopeCheck: the address first, then the check over the rules at it, read by
 * the address index. Callers decide about the name before (a 409 takes no address).
 */
async function checked(
  session: SqlSession,
  parent: ScopeRef,
  rule: ForwardingRuleJson,
  check: ScopeCheck | undefined,
): Promise<ForwardingRuleJson> {
  if (!check) return rule;
  let candidate = rule;
  if (check.allocate && rule.IPAddress === undefined) {
    const address = await takeFreeAddress(
      session,
      scopeParent(parent),
      check.allocate,
      parent.region,
    );
    candidate = { ...rule, IPAddress: address };
  }
  const address = clashAddressOf(candidate);
  const rivals =
    address === undefined ? undefined : rulesAtAddress(scopeParent(parent), address, rule.name);
  const sameAddress = rivals
    ? (await session.query<{ resource: string }>(rivals.text, rivals.params)).map(
        (r) => JSON.parse(r.resource) as ForwardingRuleJson,
      )
    : [];
  return check.check(candidate, sameAddress);
}

/**
 * Serialises the writes of a region until the transaction ends (in every process on the
 * database): the clash rule and address allocation read the region, and a requestId retry must
 * see the original's operation.
 */
async function lockScope(session: SqlSession, parent: ScopeRef): Promise<void> {
  const { text, params } = scopeLock(parent);
  await session.query(text, params);
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
    [scopeParent(parent), name],
  );
  const gone = deleted[0];
  if (!gone) return undefined;
  if (gone.pool_kind !== null && gone.pool_index !== null) {
    await releaseAddress(session, scopeParent(parent), gone.pool_kind, Number(gone.pool_index));
  }
  return JSON.parse(gone.resource) as ForwardingRuleJson;
}
