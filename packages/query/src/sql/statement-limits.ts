import type { SqlStatementLimits } from './dialect.js';
import type { SqlStatement } from './sql-statement.js';

// How big a planned statement is in the terms an engine limits (Spanner: parameters, nested
// expressions, function calls, text), read from its text. The counts are upper bounds where the
// text leaves a doubt (`IS NOT NULL` counts twice), so a statement judged within a limit is.

/** One level of parentheses or brackets and what it holds. */
interface Frame {
  /** A function call's or a subscript's parentheses: one more level of nesting. */
  call: boolean;
  /** The operator kinds at this level: each precedence level nests once. */
  kinds: Set<string>;
  /** Whether the last AND/OR at this level was an AND (a run of ANDs is one call). */
  inAnd: boolean;
  deepest: number;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IS', 'LIKE', 'IN', 'BETWEEN', 'CASE', 'EXISTS']);
const KIND: Readonly<Record<string, string>> = { AND: 'and', OR: 'or', NOT: 'not', CASE: 'case' };

/**
 * The nesting depth and the number of operators and function calls of a statement's text,
 * quoted text (`'…'`, `"…"`, backticks, with `\` escapes) skipped.
 *
 * @example
 * ```ts
 * statementShape('SELECT 1 FROM t WHERE NOT (a = @p1)'); // { nesting: 2, functions: 2 }
 * ```
 */
export function statementShape(text: string): { nesting: number; functions: number } {
  const root: Frame = { call: false, kinds: new Set(), inAnd: false, deepest: 0 };
  const stack: Frame[] = [root];
  let functions = 0;
  // What came before: a name (so `(` opens a call), or anything else.
  let afterName = false;
  // The depth of a subscript just closed: `x['a']['b']` nests the second in the first.
  let subscript = -1;
  const operator = (frame: Frame, upper: string) => {
    const kind = KIND[upper] ?? (/^[-+*/|]/.test(upper) ? 'arith' : 'compare');
    frame.kinds.add(kind);
    // A run of ANDs is one call, and so are all the ORs of one level.
    if (upper === 'AND') {
      if (!frame.inAnd) functions++;
      frame.inAnd = true;
      return;
    }
    if (upper === 'OR') {
      if (!frame.kinds.has('or-counted')) functions++;
      frame.kinds.add('or-counted');
      frame.inAnd = false;
      return;
    }
    functions++;
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    const frame = stack[stack.length - 1]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
      afterName = c === '`';
      continue;
    }
    if (c === '(' || c === '[') {
      const call = c === '[' || afterName;
      if (call) functions++;
      const deepest = c === '[' && subscript >= 0 ? subscript : 0;
      stack.push({ call, kinds: new Set(), inAnd: false, deepest });
      i++;
      afterName = false;
      subscript = -1;
      continue;
    }
    if ((c === ')' || c === ']') && stack.length > 1) {
      stack.pop();
      const parent = stack[stack.length - 1]!;
      parent.deepest = Math.max(parent.deepest, depthOf(frame));
      i++;
      afterName = c === ']';
      subscript = c === ']' ? depthOf(frame) : -1;
      continue;
    }
    if (!/\s/.test(c)) subscript = c === '[' ? subscript : -1;
    const word = /^[A-Za-z0-9_@]+/.exec(text.slice(i, i + 128))?.[0];
    if (word !== undefined) {
      const upper = word.toUpperCase();
      if (KEYWORDS.has(upper)) operator(frame, upper);
      afterName = !KEYWORDS.has(upper) && /^[A-Za-z_]/.test(word);
      i += word.length;
      continue;
    }
    const symbol = /^(?:<>|<=|>=|\|\||[=<>+*/-])/.exec(text.slice(i, i + 2))?.[0];
    if (symbol !== undefined) {
      operator(frame, symbol);
      afterName = false;
      i += symbol.length;
      continue;
    }
    if (!/\s/.test(c)) afterName = false;
    i++;
  }
  return { nesting: depthOf(root), functions };
}

function depthOf(frame: Frame): number {
  const kinds = [...frame.kinds].filter((k) => k !== 'or-counted').length;
  return (frame.call ? 1 : 0) + kinds + frame.deepest;
}

/** UTF-8 bytes of a text (the engine counts its statement's length in bytes). */
function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * The first limit a finished statement passes, as a sentence, or undefined when it is within
 * all of them.
 *
 * @example
 * ```ts
 * pastLimit(statement, { parameters: 950, nesting: 75, functions: 1000, textLength: 1 << 20 });
 * ```
 */
export function pastLimit(statement: SqlStatement, limits: SqlStatementLimits): string | undefined {
  const { nesting, functions } = statementShape(statement.text);
  const counts: [number, number, string][] = [
    [statement.params.length, limits.parameters, 'parameters'],
    [utf8Length(statement.text), limits.textLength, 'bytes of text'],
    [nesting, limits.nesting, 'nested expressions'],
    [functions, limits.functions, 'function calls'],
  ];
  for (const [count, limit, what] of counts) {
    if (count > limit) return `${count} ${what} (at most ${limit})`;
  }
  return undefined;
}
