/**
 * Compiles an AIP-160 wildcard string (`*` matches any run of characters) into a matcher.
 * Stars at the offsets in `literalStars` were written `\*` and match only a star.
 * Prefix, suffix and substring forms take a direct string method; others scan left to right,
 * which is linear per part (no backtracking beyond the greedy leftmost search).
 */
export function compileGlob(
  pattern: string,
  literalStars: readonly number[],
): (s: string) => boolean {
  const parts: string[] = [''];
  const stars = new Set(literalStars);
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && !stars.has(i)) parts.push('');
    else parts[parts.length - 1] += c;
  }
  if (parts.length === 1) return (s) => s === pattern;
  const first = parts[0]!;
  const lastPart = parts[parts.length - 1]!;
  if (parts.length === 2) {
    if (first === '' && lastPart === '') return () => true;
    if (first === '') return (s) => s.endsWith(lastPart);
    if (lastPart === '') return (s) => s.startsWith(first);
    return (s) =>
      s.length >= first.length + lastPart.length && s.startsWith(first) && s.endsWith(lastPart);
  }
  const middle = parts.slice(1, -1);
  if (parts.length === 3 && first === '' && lastPart === '') {
    const needle = middle[0]!;
    return (s) => s.includes(needle);
  }
  const minLength = parts.reduce((n, p) => n + p.length, 0);
  return (s) => {
    if (s.length < minLength || !s.startsWith(first) || !s.endsWith(lastPart)) return false;
    let at = first.length;
    const end = s.length - lastPart.length;
    for (const part of middle) {
      const found = s.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

/** True when the pattern has at least one wildcard star. */
export function hasWildcard(pattern: string, literalStars: readonly number[]): boolean {
  for (let i = pattern.indexOf('*'); i >= 0; i = pattern.indexOf('*', i + 1)) {
    if (!literalStars.includes(i)) return true;
  }
  return false;
}
