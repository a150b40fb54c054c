import type { SqlStoreContext } from '../db/sql-store-context.js';
import { type ScopeRef, scopeParent } from '../names/resource-names.js';
import { ADDRESS_POOL_SIZES, type AddressPoolKind } from './addresses/address-pool.js';
import { AddressGuesses, guessedChoice } from './addresses/sql-address-guess.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { RuleWrite, ScopeCheck, WriteResult } from './forwarding-rule-store.js';
import { type GuessedAnswer, guessedInsert, readThenInsert, scopeLock } from './sql-rule-insert.js';

// The most inserts one message carries; the rest wait for the next.
const MOST_PER_MESSAGE = 64;

/**
 * Whether the message surely committed nothing: the database refused a statement (an error with
 * a SQLSTATE, PGlite's stopped thread included; the transaction is rolled back), or the message
 * was never sent.
 */
const reportedByDatabase = (error: unknown) =>
  typeof (error as { code?: unknown } | null)?.code === 'string' ||
  // A value that cannot be sent (U+0000) is refused before anything is.
  error instanceof RangeError;

/** `work`'s value, or undefined when it throws. */
function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

type Insert = (
  parent: ScopeRef,
  rule: ForwardingRuleJson,
  write: RuleWrite & { check?: ScopeCheck },
) => Promise<WriteResult>;

type Pending = {
  parent: ScopeRef;
  rule: ForwardingRuleJson;
  write: RuleWrite & { check?: ScopeCheck };
  resolve: (result: WriteResult) => void;
  reject: (error: unknown) => void;
};

/**
 * The SQL store's insert. A rule with an ephemeral address goes through its pool's queue in this
 * process: while one message of the pool is on its way, the inserts that arrive wait, and the
 * next message carries them all (group commit). A message is one round trip: BEGIN, the region's
 * lock, then for each insert at the next guessed position ({@link AddressGuesses}) its reads and
 * its conditional write ({@link guessedInsert}: each sees the ones before it in the message), and
 * COMMIT. The region's lock is held only while the server runs the message, never across a
 * round trip, so one region takes many inserts per lock. An insert whose guess did not hold
 * (nothing written), or with no guess, or with a given address, takes two round trips
 * ({@link readThenInsert}). Every insert is answered after its COMMIT; processes sharing the
 * database are still serialised by the lock, and a guess holds only if it is what the lock's
 * holder would allocate.
 *
 * @example
 * ```ts
 * const insert = sqlRuleInsert(sql);
 * await insert(parent, rule, { operation, check });
 * ```
 */
export function sqlRuleInsert(sql: SqlStoreContext): Insert {
  const guesses = new AddressGuesses();
  // A pool's inserts waiting for the message on its way; present while one is.
  const queues = new Map<string, Pending[]>();

  const inTwoRoundTrips = async (item: Pending, kind: AddressPoolKind) => {
    const region = scopeParent(item.parent);
    await Promise.resolve()
      .then(() =>
        readThenInsert(sql, item.parent, item.rule, item.write, (choice) =>
          guesses.learn(region, kind, choice),
        ),
      )
      .then(item.resolve, item.reject);
  };

  /** Sends the pending inserts' message; settles every one of them, never throws. */
  const send = async (items: Pending[], kind: AddressPoolKind) => {
    const parent = items[0]!.parent;
    const region = scopeParent(parent);
    const late: Pending[] = [];
    let next = guesses.peek(region, kind);
    const guessed = [];
    for (const item of items) {
      const g =
        next === undefined || next >= ADDRESS_POOL_SIZES[kind]
          ? undefined
          : // Whatever throws here throws again on the insert's own way, where it is answered.
            attempt(() =>
              guessedInsert(item.parent, item.rule, item.write, guessedChoice(kind, next!)),
            );
      if (!g || next === undefined) late.push(item);
      else guessed.push({ item, g, index: next++ });
    }
    const statements = guessed.flatMap((x) => x.g.statements);
    let failed: unknown;
    const rows =
      guessed.length === 0
        ? undefined
        : await sql
            .batchedWriteTx([], (tx) =>
              tx.send([scopeLock(parent), ...statements], { commit: true }),
            )
            .catch((error: unknown) => {
              failed = error;
              return undefined;
            });
    if (failed !== undefined && !reportedByDatabase(failed)) {
      // The connection failed: the message may or may not have committed, so no insert of it
      // is tried again (a second try could answer 409 to a write that went in).
      for (const x of guessed) x.item.reject(failed);
    } else if (rows) {
      let at = 1;
      let missed = false;
      let last: number | undefined;
      for (const x of guessed) {
        const answer: GuessedAnswer = attempt(() =>
          x.g.answer(rows.slice(at, at + x.g.statements.length)),
        ) ?? { refused: new Error("the insert's answer could not be read") };
        at += x.g.statements.length;
        if ('miss' in answer) {
          missed = true;
          late.push(x.item);
        } else if ('refused' in answer) x.item.reject(answer.refused);
        else {
          if (!answer.result.replayed) last = x.index;
          x.item.resolve(answer.result);
        }
      }
      sql.wrote('forwarding_rules', guessed.length);
      sql.wrote('operations', guessed.length);
      guesses.learn(
        region,
        kind,
        missed || last === undefined ? undefined : guessedChoice(kind, last),
      );
    } else if (guessed.length > 0) {
      // The database refused a statement: the message stopped there and rolled back, nothing of
      // it committed; each insert on its own says why.
      guesses.learn(region, kind, undefined);
      late.push(...guessed.map((x) => x.item));
    }
    for (const item of late) await inTwoRoundTrips(item, kind);
  };

  const drain = async (key: string, kind: AddressPoolKind) => {
    for (;;) {
      const queue = queues.get(key) ?? [];
      if (queue.length === 0) {
        queues.delete(key);
        return;
      }
      await send(queue.splice(0, MOST_PER_MESSAGE), kind);
    }
  };

  return (parent, rule, write) => {
    const kind =
      write.check?.allocate && rule.IPAddress === undefined ? write.check.allocate : undefined;
    if (!kind) return readThenInsert(sql, parent, rule, write, () => undefined);
    const key = `${scopeParent(parent)}\u0000${kind}`;
    return new Promise<WriteResult>((resolve, reject) => {
      const item = { parent, rule, write, resolve, reject };
      const queue = queues.get(key);
      if (queue) {
        queue.push(item);
        return;
      }
      queues.set(key, [item]);
      void drain(key, kind);
    });
  };
}
