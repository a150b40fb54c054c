// Syntax highlighting from @listkit/query's own lexer (`tokenize`), so the colours follow the
// tokens the parser reads. What a token cannot say is a name's role: a field on the left of a
// comparator, a value on the right, a function's name. A filter that parses takes the roles from
// its tree (`walkFilter`); while it is broken, they are guessed from the neighbouring tokens.
import {
  type FilterAst,
  type FilterToken,
  parseFilter,
  type Segment,
  tokenize,
  walkFilter,
} from '@listkit/query';

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
  const { style, tokens } = tokenize(source);
  const ast = parsed(source);
  if (ast) return fromTree(ast, tokens);
  return style === 'regex' ? guessRegex(tokens) : guessAip(tokens);
}

function parsed(source: string): FilterAst | undefined {
  try {
    return parseFilter(source);
  } catch {
    return undefined;
  }
}

const colour = (token: FilterToken, kind: TokenKind): HighlightToken => ({
  from: token.span.start,
  to: token.span.end,
  kind,
});

/** The colour a token has whatever its role; undefined for names and for `.`, `,` and unknowns. */
function ownKind(token: FilterToken): TokenKind | undefined {
  switch (token.kind) {
    case 'keyword':
      return 'keyword';
    case 'string':
      return 'string';
    case 'number':
    case 'duration':
    case 'timestamp':
      return 'number';
    case 'operator':
      return 'operator';
    case 'pattern':
      return 'regex';
    case 'punctuation':
      return token.image === '(' || token.image === ')' ? 'paren' : undefined;
    default:
      return undefined;
  }
}

/** A value's segment is coloured as what it is: a string, a number, a keyword, or a bare word. */
function valueKind(segment: Segment): TokenKind {
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
}

/** A filter that parses: the segments of names by their role in the tree, other tokens by kind. */
function fromTree(ast: FilterAst, tokens: readonly FilterToken[]): HighlightToken[] {
  const names: HighlightToken[] = [];
  walkFilter(ast, (node, parent) => {
    if (node.type === 'call') {
      for (const s of node.name)
        names.push({ from: s.span.start, to: s.span.end, kind: 'function' });
    } else if (node.type === 'member') {
      // A field: left of a comparator, a regex-style term's field, or a function's argument.
      const field =
        parent?.type === 'regexTerm' ||
        parent?.type === 'call' ||
        (parent?.type === 'restriction' && parent.arg !== undefined && parent.comparable === node);
      for (const s of node.segments)
        names.push({ from: s.span.start, to: s.span.end, kind: field ? 'field' : valueKind(s) });
    }
  });
  // A token where a segment starts is that name (a regex-style field holds all its segments).
  const named = new Set(names.map((n) => n.from));
  const others: HighlightToken[] = [];
  for (const token of tokens) {
    if (named.has(token.span.start)) continue;
    const kind = ownKind(token);
    if (kind) others.push(colour(token, kind));
  }
  return [...names, ...others].sort((a, b) => a.from - b.from || a.to - b.to);
}

/** AIP-160 that does not parse (yet): a name before a comparator is a field, before `(` a function. */
function guessAip(tokens: readonly FilterToken[]): HighlightToken[] {
  const out: HighlightToken[] = [];
  tokens.forEach((token, i) => {
    if (token.kind !== 'text') {
      const kind = ownKind(token);
      if (kind) out.push(colour(token, kind));
      return;
    }
    // Skip over the rest of a dotted path (`labels.env`) to see what follows it.
    let j = i + 1;
    while (tokens[j]?.image === '.' && tokens[j + 1]?.kind === 'text') j += 2;
    const next = tokens[j];
    let kind: TokenKind = 'literal';
    if (next?.kind === 'operator' && next.image !== '-') kind = 'field';
    else if (next?.image === '(' && next.span.start === token.span.end) kind = 'function';
    // Otherwise a later part of a path has the colour of the part before it.
    else if (tokens[i - 1]?.image === '.') kind = out[out.length - 1]?.kind ?? 'literal';
    out.push(colour(token, kind));
  });
  return out;
}

/**
 * Regex style that does not parse (yet): a name is a field, except where the operator belongs
 * (`name e` while `eq` is being typed); AIP-160 syntax stays plain.
 */
function guessRegex(tokens: readonly FilterToken[]): HighlightToken[] {
  const out: HighlightToken[] = [];
  tokens.forEach((token, i) => {
    if (token.kind === 'text' && tokens[i - 1]?.kind === 'text') return;
    const kind = token.kind === 'text' ? 'field' : ownKind(token);
    if (kind) out.push(colour(token, kind));
  });
  return out;
}
