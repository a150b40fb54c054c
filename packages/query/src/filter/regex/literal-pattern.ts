// RE2 metacharacters; anything else in a pattern stands for itself.
const META = new Set(['\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$']);
const ANY = '.*';

/**
 * A full-match tester for patterns that need no regex engine: a plain literal (`web-1`,
 * `a\.b`), optionally with a leading and/or trailing `.*`. Returns undefined for any other
 * pattern. The result agrees exactly with RE2: `.` does not match a newline, so `.*` forms
 * require the rest of the input to be free of `\n`.
 *
 * @example
 * ```ts
 * literalPatternTester('.*-prod')?.('api-prod'); // true
 * literalPatternTester('web-[0-9]+');            // undefined
 * ```
 */
export function literalPatternTester(pattern: string): ((s: string) => boolean) | undefined {
  let body = pattern;
  const leading = body.startsWith(ANY);
  if (leading) body = body.slice(ANY.length);
  // `\.*` at the end is an escaped dot followed by `*`, not `.*`.
  const trailing = body.endsWith(ANY) && !endsEscaped(body, body.length - ANY.length);
  if (trailing) body = body.slice(0, -ANY.length);
  const literal = unescapeLiteral(body);
  if (literal === undefined) return undefined;
  if (!leading && !trailing) return (s) => s === literal;
  if (literal.includes('\n')) return undefined;
  if (leading && trailing) return (s) => s.includes(literal) && !s.includes('\n');
  if (leading) return (s) => s.endsWith(literal) && !s.includes('\n');
  return (s) => s.startsWith(literal) && !s.includes('\n');
}

function endsEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** The literal a metacharacter-free pattern matches, reading `\` + punctuation as that character. */
function unescapeLiteral(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      const next = body[i + 1];
      if (next === undefined || /[A-Za-z0-9\s]/.test(next) || next.charCodeAt(0) > 0x7e)
        return undefined;
      out += next;
      i++;
    } else if (META.has(c)) {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}
