/**
 * Orders strings by Unicode code point. JavaScript's `<` compares UTF-16 code units, which
 * differs only when a surrogate pair meets a character in U+E000–U+FFFF; that rare case takes
 * the slow path.
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
    }
    return x - y;
  }
  return a.length - b.length;
}
