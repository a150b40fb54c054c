// Lists of item keys compared and shown in one line: what `listkit conform`'s causes say.

/**
 * At most five keys, and how many there are in all.
 *
 * @example
 * few(['a', 'b']); // 'a, b'
 */
export const few = (keys: readonly string[]) =>
  keys.length > 5 ? `${keys.slice(0, 5).join(', ')} … (${keys.length})` : keys.join(', ');

/**
 * How two key sequences differ, in one line, or undefined when they are equal.
 *
 * @example
 * difference(['a', 'b'], ['b', 'a']); // 'order differs at position 1: expected a, got b'
 */
export function difference(
  expected: readonly string[],
  actual: readonly string[],
): string | undefined {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((k) => !got.has(k));
  const extra = actual.filter((k) => !want.has(k));
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${few(missing)}`);
  if (extra.length) parts.push(`unexpected ${few([...new Set(extra)])}`);
  if (got.size !== actual.length) parts.push(`repeated ${few(repeated(actual))}`);
  if (parts.length) return parts.join('; ');
  const at = expected.findIndex((k, i) => actual[i] !== k);
  if (at >= 0)
    return `order differs at position ${at + 1}: expected ${expected[at]}, got ${actual[at]}`;
  return undefined;
}

/**
 * The keys that come more than once, each once.
 *
 * @example
 * repeated(['a', 'b', 'a']); // ['a']
 */
export function repeated(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const k of keys) (seen.has(k) ? out : seen).add(k);
  return [...out];
}
