import { resourceNotFound } from '../core/compute-refusals.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import { placeholders } from '../db/sql-text.js';
import { type ScopeRef, scopedName, scopeParent } from '../names/resource-names.js';
import {
  operationByRequestIdStatement,
  operationInsert,
  operationRecord,
  recordOf,
} from '../operations/sql-operation-store.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { RuleWrite, WriteResult } from './forwarding-rule-store.js';
import { scopeLock } from './sql-rule-insert.js';
import { rulesTable } from './sql-rule-tables.js';

/**
 * Deletes a rule in two round trips (a batched transaction), not one per statement. The first
 * sends BEGIN, the region's lock, the requestId's operation, and the delete (only when the
 * requestId is new) with its address released in the same statement (queued for the pool when
 * it is below the pool's cursor, as `releaseAddress` does). The operation is built from the
 * deleted rule in this process, then sent with COMMIT. A replay or a missing rule (404) ends
 * the transaction having written nothing.
 *
 * @example
 * ```ts
 * const result = await deleteRuleBatched(sql, parent, 'web-1', { operation });
 * ```
 */
export function deleteRuleBatched(
  sql: SqlStoreContext,
  parent: ScopeRef,
  name: string,
  write: RuleWrite,
): Promise<WriteResult> {
  const region = scopeParent(parent);
  const { requestId } = write;
  // With a requestId, the delete runs only when no operation has it ($3).
  const unseen = requestId
    ? ' AND NOT EXISTS (SELECT 1 FROM operations WHERE parent = $1 AND request_id = $3)'
    : '';
  const statements = [scopeLock(parent)];
  if (requestId) statements.push(operationByRequestIdStatement(parent, requestId));
  statements.push({
    text: `WITH gone AS (
  DELETE FROM forwarding_rules WHERE parent = $1 AND "name" = $2${unseen}
  RETURNING ${rulesTable.document}::text AS resource, pool_kind, pool_index
), released AS (
  INSERT INTO address_pool_freed (parent, pool_kind, pool_index)
  SELECT c.parent, c.pool_kind, g.pool_index FROM gone g
  JOIN address_pool_cursors c ON c.parent = $1 AND c.pool_kind = g.pool_kind
  WHERE g.pool_index IS NOT NULL AND c.next_index > g.pool_index
  ON CONFLICT DO NOTHING
)
SELECT resource FROM gone`,
    params: requestId ? [region, name, requestId] : [region, name],
  });
  return sql.batchedWriteTx(['forwarding_rules', 'operations'], async (tx) => {
    const rows = (await tx.send(statements)).slice(1);
    if (requestId) {
      const [earlier] = rows.shift() ?? [];
      if (earlier) return { operation: operationRecord(earlier), replayed: true };
    }
    const [gone] = rows.shift() ?? [];
    if (!gone) throw resourceNotFound(scopedName(parent, 'forwardingRules', name));
    const rule = JSON.parse(String(gone.resource)) as ForwardingRuleJson;
    const added = write.operation(rule);
    const op = operationInsert(parent, added);
    await tx.send(
      [
        {
          text: `INSERT INTO operations (${op.columns}) VALUES (${placeholders(op.values.length)})`,
          params: op.values,
        },
      ],
      { commit: true },
    );
    return { operation: recordOf(parent, added), replayed: false, rule };
  });
}
