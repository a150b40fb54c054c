// The rules' part of a store image (store/store-image.ts) in SQL: read in the caller's snapshot
// transaction, written back in its restore.

import { insertRows } from '../db/sql-bulk-insert.js';
import type { SqlSession } from '../db/sql-database.js';
import { type ScopeRef, scopeParent, scopeRefOf } from '../names/resource-names.js';
import { addressColumns } from './addresses/address-columns.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { RULE_COLUMNS, rulesTable } from './sql-rule-tables.js';

/**
 * Every rule with its scope, read in the caller's transaction.
 *
 * @example
 * ```ts
 * const rules = await readRuleEntries(session);
 * ```
 */
export async function readRuleEntries(
  session: SqlSession,
): Promise<(ScopeRef & { rule: ForwardingRuleJson })[]> {
  const rows = await session.query<{ parent: string; resource: string }>(
    `SELECT parent, ${rulesTable.document}::text AS resource FROM forwarding_rules ORDER BY parent, "name"`,
  );
  return rows.map((r) => ({
    ...scopeRefOf(r.parent),
    rule: JSON.parse(r.resource) as ForwardingRuleJson,
  }));
}

/**
 * Writes rules as given, with their columns (as `put` writes one), into a table the caller
 * emptied, or with `snapshot` among that snapshot's rows; the address pools need no rows: a
 * pool's free positions are found from the rules'.
 *
 * @example
 * ```ts
 * await writeRuleEntries(session, image.rules);
 * ```
 */
export function writeRuleEntries(
  session: SqlSession,
  entries: readonly (ScopeRef & { rule: ForwardingRuleJson })[],
  snapshot?: string,
): Promise<void> {
  return insertRows(
    session,
    'forwarding_rules',
    ['parent', 'project', ...RULE_COLUMNS],
    entries.map(({ rule, ...parent }) => [
      scopeParent(parent),
      parent.project,
      ...rulesTable.row(rule),
      ...addressColumns(rule.IPAddress),
    ]),
    snapshot,
  );
}
