import { resourceAlreadyExists } from '../core/compute-refusals.js';
import type { SqlBatchStatement, SqlRows, SqlValue } from '../db/sql-database.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import { placeholders } from '../db/sql-text.js';
import { type ScopeRef, scopedName, scopeParent } from '../names/resource-names.js';
import {
  operationByRequestIdStatement,
  operationInsert,
  operationRecord,
  recordOf,
} from '../operations/sql-operation-store.js';
import { addressColumns } from './addresses/address-columns.js';
import { guessHolds } from './addresses/sql-address-guess.js';
import {
  type AddressChoice,
  addressReads,
  allocationWrites,
  chooseFreeAddress,
} from './addresses/sql-address-pool.js';
import { clashAddressOf } from './create/clash-rule.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { RuleWrite, ScopeCheck, WriteResult } from './forwarding-rule-store.js';
import { RULE_COLUMNS, rulesAtAddress, rulesTable } from './sql-rule-tables.js';

/**
 * The statement that serialises the writes of a scope (a region, or a project's global rules)
 * until the transaction ends, in every process on the database: the clash rule and address
 * allocation read the scope, and a requestId retry must see the original's operation. It goes
 * first and alone: every statement after it takes a snapshot that sees the writes of the
 * transaction that held the lock before.
 *
 * @example
 * ```ts
 * await tx.send([scopeLock(parent), ...reads]);
 * ```
 */
export const scopeLock = (parent: ScopeRef): SqlBatchStatement => ({
  text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
  params: [scopeParent(parent)],
});

/**
 * A guessed insert's answer from the rows of its statements: the write's result, its refusal
 * (a 409), or `miss` when the guess did not hold and nothing was written.
 */
export type GuessedAnswer =
  | { readonly result: WriteResult }
  | { readonly refused: unknown }
  | { readonly miss: true };

/**
 * The statements of an insert at a guessed ephemeral address, to send after the region's lock in
 * the message that commits: the requestId's operation and the name (read for the answer), then
 * the rule, its operation and the pool's bookkeeping as one statement that writes only when the
 * requestId is new and the guess is the pool's lowest free position ({@link guessHolds}). The
 * clash rule runs here, before anything is sent: an allocated address has no rivals. Undefined
 * when the clash rule refuses the rule at that address: the two round trips answer it in its
 * order (a replay, then a 409, then the refusal).
 *
 * @example
 * ```ts
 * const guessed = guessedInsert(parent, rule, write, guessedChoice('internal', 7));
 * ```
 */
export function guessedInsert(
  parent: ScopeRef,
  rule: ForwardingRuleJson,
  write: RuleWrite & { check?: ScopeCheck },
  choice: AddressChoice,
): { statements: SqlBatchStatement[]; answer: (rows: SqlRows[]) => GuessedAnswer } | undefined {
  const { check, requestId } = write;
  const region = scopeParent(parent);
  let stored: ForwardingRuleJson;
  try {
    stored = check ? check.check({ ...rule, IPAddress: choice.address }, []) : rule;
  } catch {
    return undefined;
  }
  const added = write.operation(stored);
  const statements: SqlBatchStatement[] = [];
  if (requestId) statements.push(operationByRequestIdStatement(parent, requestId));
  statements.push(nameTaken(region, rule.name));
  statements.push(
    ruleAndOperation(parent, stored, added, choice, (from) => {
      const holds = guessHolds(region, choice.kind, choice.index ?? -1, from);
      if (!requestId) return holds;
      const at = from + holds.params.length;
      const unseen = `NOT EXISTS (SELECT 1 FROM operations WHERE parent = $${at}::text AND request_id = $${at + 1}::text)`;
      return { sql: `${holds.sql} AND ${unseen}`, params: [...holds.params, region, requestId] };
    }),
  );
  const answer = (results: SqlRows[]): GuessedAnswer => {
    const rows = [...results];
    if (requestId) {
      const [earlier] = rows.shift() ?? [];
      if (earlier) return { result: { operation: operationRecord(earlier), replayed: true } };
    }
    if ((rows.shift() ?? []).length > 0) {
      return { refused: resourceAlreadyExists(ruleName(parent, rule)) };
    }
    const [[inserted] = []] = rows;
    if (Number(inserted?.inserted ?? 0) === 0) return { miss: true };
    return { result: { operation: recordOf(parent, added), replayed: false, rule: stored } };
  };
  return { statements, answer };
}

/** Whether a rule of the region has the name. */
const nameTaken = (region: string, name: string): SqlBatchStatement => ({
  text: 'SELECT 1 AS taken FROM forwarding_rules WHERE parent = $1 AND "name" = $2',
  params: [region, name],
});

/**
 * Inserts a rule in two round trips (a batched transaction). The first takes the region's lock
 * and reads everything the write decides from: the requestId's operation, whether the name is
 * in use, the address pool's free positions (an ephemeral address) or the rules at the given
 * address (the clash rule's rivals). This process then decides: a replay, a 409, a 403 or a
 * clash ends the transaction having written nothing. The second sends the rule, its operation
 * and the pool's bookkeeping as one statement, and COMMIT: the lock is held across one round
 * trip and the clash rule's JavaScript, not one per statement.
 *
 * @example
 * ```ts
 * const result = await readThenInsert(sql, parent, rule, { operation, check }, learn);
 * ```
 */
export function readThenInsert(
  sql: SqlStoreContext,
  parent: ScopeRef,
  rule: ForwardingRuleJson,
  write: RuleWrite & { check?: ScopeCheck },
  learn: (choice: AddressChoice) => void,
): Promise<WriteResult> {
  const { check, requestId } = write;
  const region = scopeParent(parent);
  const allocate = check?.allocate && rule.IPAddress === undefined ? check.allocate : undefined;
  // A given address's rivals are read with the lock; an allocated one has none: it is a pool
  // position no rule of the region uses, and a rule's address_key is at a pool position exactly
  // when it has that position's pool_kind and pool_index (addressColumns).
  const given = check && !allocate ? clashAddressOf(rule) : undefined;
  return sql.batchedWriteTx(['forwarding_rules', 'operations'], async (tx) => {
    const reads = [scopeLock(parent)];
    if (requestId) reads.push(operationByRequestIdStatement(parent, requestId));
    if (allocate) {
      reads.push(nameTaken(region, rule.name), ...addressReads(region, allocate));
    }
    if (given !== undefined) {
      reads.push(rulesAtAddress(region, given, rule.name));
    }
    const rows = (await tx.send(reads)).slice(1);
    if (requestId) {
      const [earlier] = rows.shift() ?? [];
      if (earlier) return { operation: operationRecord(earlier), replayed: true };
    }
    let choice: AddressChoice | undefined;
    let candidate = rule;
    if (allocate) {
      // A name in use is a 409 before any address is taken (and before the pool's quota).
      if ((rows.shift() ?? []).length > 0) throw resourceAlreadyExists(ruleName(parent, rule));
      choice = await chooseFreeAddress(tx, region, allocate, parent.region, rows.splice(0, 3));
      learn(choice);
      candidate = { ...rule, IPAddress: choice.address };
    }
    const sameAddress = (rows.shift() ?? []).map(
      (r) => JSON.parse(String(r.resource)) as ForwardingRuleJson,
    );
    const stored = check ? check.check(candidate, sameAddress) : candidate;
    const added = write.operation(stored);
    const [[inserted] = []] = await tx.send([ruleAndOperation(parent, stored, added, choice)], {
      // A search that wrote the pool itself commits only once the rule is in (rare: see
      // chooseFreeAddress); else the pool's writes are conditional on the rule's.
      commit: !choice?.recorded,
    });
    if (Number(inserted?.inserted ?? 0) === 0) throw resourceAlreadyExists(ruleName(parent, rule));
    return { operation: recordOf(parent, added), replayed: false, rule: stored };
  });
}

const ruleName = (parent: ScopeRef, rule: ForwardingRuleJson) =>
  scopedName(parent, 'forwardingRules', rule.name);

/**
 * The rule, its operation and the address choice's bookkeeping as one statement: the operation's
 * row and the pool's writes go in only when the rule's did (a name taken meanwhile writes
 * nothing, a 409), and the rule's only when `condition` (given its first placeholder) holds.
 */
function ruleAndOperation(
  parent: ScopeRef,
  stored: ForwardingRuleJson,
  added: ReturnType<RuleWrite['operation']>,
  choice: AddressChoice | undefined,
  condition?: (from: number) => { sql: string; params: SqlValue[] },
): SqlBatchStatement {
  const row: SqlValue[] = [
    scopeParent(parent),
    parent.project,
    ...rulesTable.row(stored),
    ...addressColumns(stored.IPAddress),
  ];
  const op = operationInsert(parent, added);
  const pool = choice
    ? allocationWrites(scopeParent(parent), choice, row.length + op.values.length + 1)
    : { ctes: '', params: [] };
  const when = condition?.(row.length + op.values.length + pool.params.length + 1);
  const values = when
    ? `SELECT ${placeholders(row.length)} WHERE ${when.sql}`
    : `VALUES (${placeholders(row.length)})`;
  return {
    text: `WITH rule AS (
  INSERT INTO forwarding_rules (parent, project, ${RULE_COLUMNS.join(', ')})
  ${values} ON CONFLICT (parent, "name") DO NOTHING RETURNING 1 AS ok
), recorded AS (
  INSERT INTO operations (${op.columns}) SELECT ${placeholders(op.values.length, row.length + 1)} FROM rule
)${pool.ctes}
SELECT count(*)::text AS inserted FROM rule`,
    params: [...row, ...op.values, ...pool.params, ...(when?.params ?? [])],
  };
}
