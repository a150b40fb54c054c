/**
 * One statement: text with the dialect's placeholders (`$n` in PostgreSQL, `?` in SQLite), and
 * their values as text (or NULL), in placeholder order.
 *
 * @example
 * ```ts
 * const { text, params }: SqlStatement = planListQuery(table, query);
 * await client.query(text, [...params]);
 * ```
 */
export interface SqlStatement {
  readonly text: string;
  readonly params: readonly (string | null)[];
}
