import { simpleQueryText } from '@listkit/query/sql';
import type { SqlBatchSession, SqlBatchStatement, SqlRows } from './sql-database.js';

/**
 * The statements as one simple-query text: `simpleQueryText`'s escaping (each `$n` an `E'…'`
 * constant, U+0000 refused with a RangeError), numbers and booleans written as their text. A
 * constant has type unknown, as an untyped parameter has: a column it is compared with or
 * assigned to gives it its type; write a cast where nothing does.
 *
 * @example
 * ```ts
 * batchText([{ text: 'SELECT $1::integer AS n', params: [3] }]); // "SELECT E'3'::integer AS n"
 * ```
 */
export function batchText(statements: readonly SqlBatchStatement[]): string {
  return simpleQueryText(
    statements.map((s) => ({
      text: s.text,
      params: (s.params ?? []).map((v) => (v === null ? null : String(v))),
    })),
  );
}

/**
 * Runs `work` as {@link SqlDatabase.batchedTransaction} describes, over `send`, which sends one
 * simple-query text on the transaction's connection and returns each statement's rows.
 *
 * @example
 * ```ts
 * const result = await runBatchedTransaction((text) => sendOn(client, text), work);
 * ```
 */
export async function runBatchedTransaction<T>(
  send: (text: string) => Promise<SqlRows[]>,
  work: (tx: SqlBatchSession) => Promise<T>,
): Promise<T> {
  // Widened: the session's calls change it where the compiler does not look.
  let state = 'idle' as 'idle' | 'open' | 'ended';
  const session: SqlBatchSession = {
    send: async (statements, options = {}) => {
      if (state === 'ended') throw new Error('the batched transaction has ended');
      const begin = state === 'idle';
      // Escaped before anything is sent: a value that cannot be sent leaves no transaction open.
      const texts = statements.length > 0 ? [batchText(statements)] : [];
      if (begin) texts.unshift('BEGIN');
      if (options.commit) texts.push('COMMIT');
      state = 'open';
      const results = await send(texts.join(';\n'));
      if (options.commit) state = 'ended';
      const from = begin ? 1 : 0;
      return results.slice(from, from + statements.length);
    },
  };
  try {
    const result = await work(session);
    if (state === 'open') await send('COMMIT');
    return result;
  } catch (error) {
    // A failed text stops at the statement that failed: COMMIT did not run, the transaction is
    // open (or aborted) and must end here before the connection is reused.
    if (state === 'open') await send('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
