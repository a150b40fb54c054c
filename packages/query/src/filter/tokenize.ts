import type { Span } from '../errors.js';
import type { FilterStyle } from './ast.js';
import { detectFilterStyle } from './detect-style.js';
import { filterLexer } from './lexer.js';

/**
 * What a {@link FilterToken} is, in words an editor can colour by.
 *
 * @example
 * ```ts
 * tokenize('a = "b"').tokens.map((t) => t.kind); // ['text', 'operator', 'string']
 * ```
 */
export type FilterTokenKind =
  /** A name or bare word: a field, a function name, an unquoted value, or a regex-style field. */
  | 'text'
  /** `AND`, `OR`, `NOT`, or a keyword used as a name (`NOT(`). */
  | 'keyword'
  /** A quoted string, possibly unterminated while being typed. */
  | 'string'
  | 'number'
  | 'duration'
  | 'timestamp'
  /** `=`, `!=`, `<`, `<=`, `>`, `>=`, `:`, `-`, or regex style's `eq`/`ne`. */
  | 'operator'
  /** A regex-style pattern, quoted or not. */
  | 'pattern'
  /** `(`, `)`, `,`, `.`. */
  | 'punctuation'
  /** Text the language has no token for here (in regex style, AIP-160 syntax such as `=`). */
  | 'other';

/**
 * One token of a filter, with its place in the source.
 *
 * @example
 * ```ts
 * for (const { kind, image, span } of tokenize('size >= 10').tokens) console.log(kind, image, span.start);
 * ```
 */
export interface FilterToken {
  kind: FilterTokenKind;
  /** The source text of the token. */
  image: string;
  span: Span;
}

/**
 * The tokens of a filter, and where the lexer found nothing it knows.
 *
 * @example
 * ```ts
 * const { style, tokens, unknown } = tokenize('name = # x');
 * unknown; // [{ start: 7, end: 8 }]
 * ```
 */
export interface Tokenized {
  style: FilterStyle;
  /** Every token in source order; blanks are not tokens. */
  tokens: FilterToken[];
  /** Characters that start no token (such as `#`), one span each; the rest still lexes. */
  unknown: Span[];
}

const KIND_BY_TOKEN: Readonly<Record<string, FilterTokenKind>> = {
  Text: 'text',
  KeywordName: 'keyword',
  And: 'keyword',
  Or: 'keyword',
  Not: 'keyword',
  StringLiteral: 'string',
  UnterminatedString: 'string',
  Timestamp: 'timestamp',
  DurationLiteral: 'duration',
  NumberLiteral: 'number',
  Minus: 'operator',
  LessEquals: 'operator',
  GreaterEquals: 'operator',
  NotEquals: 'operator',
  LessThan: 'operator',
  GreaterThan: 'operator',
  Equals: 'operator',
  Has: 'operator',
  LParen: 'punctuation',
  CallLParen: 'punctuation',
  RParen: 'punctuation',
  Comma: 'punctuation',
  Dot: 'punctuation',
  RegexField: 'text',
  RegexOperator: 'operator',
  RegexQuoted: 'pattern',
  RegexUnquoted: 'pattern',
  RegexLParen: 'punctuation',
  RegexRParen: 'punctuation',
  RegexAipComparator: 'other',
  RegexAipKeyword: 'other',
  RegexOther: 'other',
};

/**
 * Splits a filter into the tokens the parser reads, in the language detected from its shape. It
 * never throws and needs no valid filter, so an editor can colour text while it is being typed.
 * It does not check length limits: call it on text you would also hand to {@link parseFilter}.
 *
 * @example
 * ```ts
 * tokenize('labels.env = "prod"').tokens.map((t) => t.kind);
 * // ['text', 'punctuation', 'text', 'operator', 'string']
 * tokenize('name eq web-.*').tokens.map((t) => t.kind); // ['text', 'operator', 'pattern']
 * ```
 */
export function tokenize(source: string): Tokenized {
  const style = detectFilterStyle(source);
  if (style === 'empty') return { style, tokens: [], unknown: [] };
  const lexed = filterLexer.tokenize(source, style === 'regex' ? 'regex' : 'aip');
  return {
    style,
    tokens: lexed.tokens.map((token) => ({
      kind: KIND_BY_TOKEN[token.tokenType.name] ?? 'other',
      image: token.image,
      span: { start: token.startOffset, end: token.startOffset + token.image.length },
    })),
    unknown: lexed.errors.map((error) => ({
      start: error.offset,
      end: error.offset + Math.max(1, error.length),
    })),
  };
}
