// Syntax highlighting. A filter that parses is coloured from its tree, whose spans say exactly
// what each piece of text is (a field on the left of a comparator, a value on the right). While
// the filter is broken, a tolerant scanner with the lexer's token shapes colours it instead.
import type {
  ArgNode,
  ComparableNode,
  ExpressionNode,
  FilterAst,
  RegexTermNode,
  Segment,
} from '@listkit/query';
import { detectFilterStyle, parseFilter } from '@listkit/query';

export type TokenKind =
  | 'field'
  | 'operator'
  | 'keyword'
  | 'string'
  | 'number'
  | 'literal'
  | 'regex'
  | 'function'
  | 'paren';

export interface HighlightToken {
  from: number;
  to: number;
  kind: TokenKind;
}

/** Tokens for the whole filter, in source order. */
export function highlightTokens(source: string): HighlightToken[] {
  let ast: FilterAst | undefined;
  try {
    ast = parseFilter(source);
  } catch {
    return scanTokens(source);
  }
  return tokensFromAst(ast).sort((a, b) => a.from - b.from || a.to - b.to);
}

/** Tokens read off a parsed filter's spans. */
export function tokensFromAst(ast: FilterAst): HighlightToken[] {
  const out: HighlightToken[] = [];
  const push = (from: number, to: number, kind: TokenKind) => {
    if (to > from) out.push({ from, to, kind });
  };
  const source = ast.source;

  const segmentKind = (segment: Segment): TokenKind => {
    switch (segment.kind) {
      case 'string':
        return 'string';
      case 'number':
      case 'duration':
      case 'timestamp':
        return 'number';
      case 'keyword':
        return 'keyword';
      default:
        return 'literal';
    }
  };

  const comparable = (node: ComparableNode, role: 'field' | 'value') => {
    if (node.type === 'member') {
      for (const s of node.segments)
        push(s.span.start, s.span.end, role === 'field' ? 'field' : segmentKind(s));
      return;
    }
    for (const s of node.name) push(s.span.start, s.span.end, 'function');
    const nameEnd = node.name[node.name.length - 1]!.span.end;
    push(nameEnd, nameEnd + 1, 'paren');
    push(node.span.end - 1, node.span.end, 'paren');
    for (const a of node.args) arg(a, 'field');
  };

  const arg = (node: ArgNode, role: 'field' | 'value') => {
    if (node.type === 'composite') expression(node);
    else comparable(node, role);
  };

  const keywordsBetween = (from: number, to: number) => {
    const gap = source.slice(from, to);
    for (const m of gap.matchAll(/AND|OR/g))
      push(from + m.index, from + m.index + m[0].length, 'keyword');
  };

  const expression = (node: ExpressionNode): void => {
    switch (node.type) {
      case 'and':
      case 'sequence':
      case 'or':
        node.operands.forEach((operand, i) => {
          const next = node.operands[i + 1];
          expression(operand);
          if (next && node.type !== 'sequence') keywordsBetween(operand.span.end, next.span.start);
        });
        return;
      case 'not':
        if (node.syntax === 'NOT') push(node.span.start, node.span.start + 3, 'keyword');
        else push(node.span.start, node.span.start + 1, 'operator');
        expression(node.operand);
        return;
      case 'composite':
        push(node.span.start, node.span.start + 1, 'paren');
        expression(node.expression);
        push(node.span.end - 1, node.span.end, 'paren');
        return;
      case 'restriction':
        if (node.comparator && node.arg && node.comparatorSpan) {
          comparable(node.comparable, 'field');
          push(node.comparatorSpan.start, node.comparatorSpan.end, 'operator');
          arg(node.arg, 'value');
        } else {
          comparable(node.comparable, 'value');
        }
        return;
    }
  };

  const regexTerm = (term: RegexTermNode) => {
    if (term.parenthesized) {
      push(term.span.start, term.span.start + 1, 'paren');
      push(term.span.end - 1, term.span.end, 'paren');
    }
    for (const s of term.field.segments) push(s.span.start, s.span.end, 'field');
    const gap = source.slice(term.field.span.end, term.pattern.span.start);
    const op = gap.search(/eq|ne/);
    if (op >= 0) push(term.field.span.end + op, term.field.span.end + op + 2, 'operator');
    push(term.pattern.span.start, term.pattern.span.end, 'regex');
  };

  if (ast.style === 'aip-160') expression(ast.expression);
  else if (ast.style === 'regex') for (const term of ast.terms) regexTerm(term);
  return out;
}

// ------------------------------------------------------------------------------------------
// The tolerant scanner, for text that does not parse (yet).

const AIP_TOKENS: [RegExp, TokenKind | 'text' | null][] = [
  [/\s+/y, null],
  [/"(?:[^"\\\n]|\\[\s\S])*"?|'(?:[^'\\\n]|\\[\s\S])*'?/y, 'string'],
  [/\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})/y, 'number'],
  [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+|s)?(?![^\s().=:<>!,"'])/y, 'number'],
  [/(?:AND|OR|NOT)(?![^\s().=:<>!,"'])/y, 'keyword'],
  [/<=|>=|!=|[<>=:]/y, 'operator'],
  [/[()]/y, 'paren'],
  [/-/y, 'operator'],
  [/[.,]/y, null],
  [/[^\s().=:<>!,"'-][^\s().=:<>!,"']*/y, 'text'],
  [/[\s\S]/y, null],
];

/** Colours text that does not parse: same token shapes as the lexer, fields guessed by position. */
export function scanTokens(source: string): HighlightToken[] {
  return detectFilterStyle(source) === 'regex' ? scanRegex(source) : scanAip(source);
}

function scanAip(source: string): HighlightToken[] {
  const raw: { from: number; to: number; kind: TokenKind | 'text' | null; text: string }[] = [];
  let at = 0;
  while (at < source.length) {
    for (const [pattern, kind] of AIP_TOKENS) {
      pattern.lastIndex = at;
      const m = pattern.exec(source);
      if (!m || m[0].length === 0) continue;
      raw.push({ from: at, to: at + m[0].length, kind, text: m[0] });
      at += m[0].length;
      break;
    }
  }
  const significant = raw.filter((t) => t.kind !== null || t.text === '.' || t.text === ',');
  const out: HighlightToken[] = [];
  significant.forEach((token, i) => {
    if (token.kind === null) return;
    if (token.kind !== 'text') {
      out.push({ from: token.from, to: token.to, kind: token.kind });
      return;
    }
    // Skip forward over a dotted path (`labels.env`) to see what follows it.
    let j = i + 1;
    while (significant[j]?.text === '.' && significant[j + 1]?.kind === 'text') j += 2;
    const next = significant[j];
    const previous = significant[i - 1]?.text === '.' ? undefined : significant[i - 1];
    let kind: TokenKind = 'literal';
    if (next?.kind === 'operator' && next.text !== '-') kind = 'field';
    else if (next?.text === '(' && next.from === token.to) kind = 'function';
    else if (previous?.kind === 'operator' && previous.text !== '-') kind = 'literal';
    else if (significant[i - 1]?.text === '.') kind = out[out.length - 1]?.kind ?? 'literal';
    out.push({ from: token.from, to: token.to, kind });
  });
  return out;
}

function scanRegex(source: string): HighlightToken[] {
  const out: HighlightToken[] = [];
  const field = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/y;
  const operator = /(?:eq|ne)(?=[\s)]|$)/y;
  let at = 0;
  let depth = 0;
  let expect: 'field' | 'operator' | 'pattern' = 'field';
  while (at < source.length) {
    const c = source[at]!;
    if (/\s/.test(c)) {
      at++;
      continue;
    }
    if (expect === 'pattern') {
      let end = at;
      if (c === '"' || c === "'") {
        end++;
        while (end < source.length && source[end] !== c) end += source[end] === '\\' ? 2 : 1;
        end = Math.min(end + 1, source.length);
      } else {
        let inner = 0;
        while (end < source.length) {
          const d = source[end]!;
          if (d === '\\') {
            end += 2;
            continue;
          }
          if (depth === 0 && /\s/.test(d)) break;
          if (d === '(') inner++;
          else if (d === ')') {
            if (inner === 0 && depth > 0) break;
            inner--;
          }
          end++;
        }
      }
      out.push({ from: at, to: Math.min(end, source.length), kind: 'regex' });
      at = Math.max(end, at + 1);
      expect = 'field';
      continue;
    }
    if (c === '(' || c === ')') {
      depth += c === '(' ? 1 : -1;
      out.push({ from: at, to: at + 1, kind: 'paren' });
      at++;
      continue;
    }
    const pattern = expect === 'field' ? field : operator;
    pattern.lastIndex = at;
    const m = pattern.exec(source);
    if (m) {
      out.push({ from: at, to: at + m[0].length, kind: expect === 'field' ? 'field' : 'operator' });
      at += m[0].length;
      expect = expect === 'field' ? 'operator' : 'pattern';
      continue;
    }
    at++;
  }
  return out;
}
