import { parentScope } from '../list/parent-scope.js';
import type { PatternPiece } from './dialect.js';
import { isStorableText, type Parameters } from './sql-text.js';
import type { SqlTable } from './table-types.js';

/**
 * The WHERE conditions that keep a page to the items under a request's parent, as
 * `Collection.list` does (see `parentScope` for what is under a parent):
 *
 * - with a parent column (`SqlListOptions.parentColumn`): `column = $parent`, or for a parent
 *   with `-` segments (AIP-159) a wildcard match on it (the dialect's LIKE or GLOB);
 * - otherwise by the key as a resource name: the key in the range of names starting with the
 *   parent's literal prefix (so the key's index seeks the parent's rows, in key order), a
 *   wildcard match for `-` segments, and the number of `/` in the key (two more than the parent's), so
 *   a nested resource's name is not taken for a child's.
 *
 * Empty for no parent. Throws a `ListkitError` on `parent` for a malformed one.
 */
export function parentConditions(
  table: SqlTable,
  parent: string | undefined,
  params: Parameters,
  parentColumn?: string,
): string[] {
  const scope = parentScope(parent);
  if (!scope || parent === undefined) return [];
  // No stored text holds U+0000 or a lone surrogate: nothing is under such a parent.
  if (!isStorableText(parent)) return ['FALSE'];
  const { dialect } = table;
  const matches = (expr: string, pieces: readonly PatternPiece[]) =>
    dialect.matches(expr, params.add(dialect.patternText(pieces), 'text'), false);
  if (parentColumn !== undefined) {
    const column = dialect.codePoint(dialect.quoteIdentifier(parentColumn));
    return scope.exact !== undefined
      ? [`${column} = ${params.add(scope.exact, 'text')}`]
      : [matches(column, patternPieces(parent))];
  }
  const key = table.column(table.schema.key);
  if (key?.type.kind !== 'string') {
    throw new TypeError(
      `a parent is found in the key as a resource name, and the key "${table.schema.key}" is not a string: give parentColumn`,
    );
  }
  const value = key.value;
  // The names under the parent's segments before its first `-`: one run of the key's order.
  const wildcard = `/${parent}/`.indexOf('/-/');
  const literal =
    wildcard < 0 ? `${parent}/` : wildcard === 0 ? '' : `${parent.slice(0, wildcard - 1)}/`;
  const conditions =
    literal === ''
      ? []
      : [
          `${value} >= ${params.add(literal, 'text')}`,
          `${value} < ${params.add(`${literal.slice(0, -1)}0`, 'text')}`, // '0' follows '/'
        ];
  if (scope.exact === undefined) {
    conditions.push(matches(value, [...patternPieces(parent), { text: '/' }, 'any']));
  }
  const slashes = parent.split('/').length + 1;
  conditions.push(
    `length(${value}) - length(replace(${value}, '/', '')) = ${params.add(String(slashes), 'integer')}`,
  );
  return conditions;
}

/** The parent as a wildcard pattern: `-` segments match any text, the rest literally. */
function patternPieces(parent: string): PatternPiece[] {
  return parent
    .split('/')
    .flatMap((s, i): PatternPiece[] => [
      ...(i > 0 ? [{ text: '/' }] : []),
      s === '-' ? 'any' : { text: s },
    ]);
}
