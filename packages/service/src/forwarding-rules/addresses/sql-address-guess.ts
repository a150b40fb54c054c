import type { SqlValue } from '../../db/sql-database.js';
import { ADDRESS_POOL_SIZES, type AddressPoolKind, addressAt } from './address-pool.js';
import type { AddressChoice } from './sql-address-pool.js';

/**
 * Where this process expects each region's pool to hand out its next address: the position after
 * the last one it took there from the cursor. Inserts that guess right take one round trip (their
 * statements check the guess under the region's lock and write only if it holds); a wrong guess
 * (another process wrote, a rule was deleted) costs one round trip more and writes nothing.
 * Guesses only save round trips: what is stored is decided by {@link guessHolds} in the
 * database, under the lock.
 *
 * @example
 * ```ts
 * const guesses = new AddressGuesses();
 * guesses.peek('projects/p/regions/r', 'internal'); // undefined until an insert there learned it
 * ```
 */
export class AddressGuesses {
  readonly #next = new Map<string, number>();

  /** The position the next insert into the pool should try, or undefined when there is none. */
  peek(parent: string, kind: AddressPoolKind): number | undefined {
    const guess = this.#next.get(`${parent}\u0000${kind}`);
    return guess === undefined || guess >= ADDRESS_POOL_SIZES[kind] ? undefined : guess;
  }

  /**
   * What an insert learned: the position it took (from the cursor, the next guess is the one after
   * it; a released position says nothing of the next), or undefined for a wrong guess.
   */
  learn(parent: string, kind: AddressPoolKind, choice: AddressChoice | undefined): void {
    const key = `${parent}\u0000${kind}`;
    if (choice?.index !== undefined && choice.cursor !== undefined) {
      this.#next.set(key, choice.index + 1);
    } else this.#next.delete(key);
  }
}

/**
 * The choice an insert records when its guess holds: the position, the released positions up to
 * it dropped (the guess holds only when each below it is in use again) and the cursor moved past
 * it (if it was not already).
 *
 * @example
 * ```ts
 * const choice = guessedChoice('internal', 7);
 * ```
 */
export function guessedChoice(kind: AddressPoolKind, index: number): AddressChoice {
  return {
    address: addressAt(kind, index),
    kind,
    index,
    dropFreedTo: index,
    cursor: index + 1,
    recorded: false,
  };
}

/**
 * A SQL condition, true when position `index` of the pool is the lowest no rule of the region
 * uses (the function `listkit_lowest_free_position`, schema version 3, migrations.ts). Placeholders
 * from `$from` on. Read under the region's lock, in a statement after the lock's.
 *
 * @example
 * ```ts
 * const { sql, params } = guessHolds(parent, 'internal', 7, 12);
 * ```
 */
export function guessHolds(
  parent: string,
  kind: AddressPoolKind,
  index: number,
  from: number,
): { sql: string; params: SqlValue[] } {
  return {
    sql: `listkit_lowest_free_position($${from}::text, $${from + 1}::text, $${from + 2}::integer)`,
    params: [parent, kind, index],
  };
}
