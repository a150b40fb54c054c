import { replacePlaceholders } from './sql-text.js';

/**
 * A planned clause split at its `$n` placeholders, for query builders that write their own
 * placeholders: `texts` has one more entry than `values`, and the clause is `texts[0]`, the
 * first value, `texts[1]`, … Placeholders inside quoted identifiers and string constants stay
 * text (the same reading as {@link replacePlaceholders}). A placeholder without a value throws.
 *
 * @example
 * ```ts
 * placeholderPieces(`"a" = $2 AND "b" = '$1'`, ['x', 'y']);
 * // { texts: ['"a" = ', ` AND "b" = '$1'`], values: ['y'] }
 * ```
 */
export function placeholderPieces(
  text: string,
  params: readonly (string | null)[],
): { texts: string[]; values: (string | null)[] } {
  // U+0000 marks where each placeholder was; the planner's text never holds one (request text
  // travels only as parameters, and PostgreSQL text cannot hold it).
  if (text.includes('\u0000')) throw new RangeError('SQL text holds U+0000');
  const values: (string | null)[] = [];
  const marked = replacePlaceholders(text, (index, written) => {
    if (index < 0 || index >= params.length) {
      throw new RangeError(`placeholder ${written} has no parameter`);
    }
    values.push(params[index]!);
    return '\u0000';
  });
  return { texts: marked.split('\u0000'), values };
}
