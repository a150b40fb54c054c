import { createToken, type IToken, type TokenType } from 'chevrotain';

// The tokens of both filter languages and the one scanner that produces them. The style is
// detected before lexing (see detect-style.ts) and chooses the mode: `aip` or `regex`.
//
// The scanner is hand-written rather than Chevrotain's `Lexer` (a third of a parse's time went
// to it), but it keeps that lexer's rules exactly, so tokens, error offsets and lengths are the
// same: in each mode the token kinds are tried in the order listed below and the first that
// matches wins, except that a keyword or number gives way to a longer bare word (Chevrotain's
// `longer_alt`); whitespace (JavaScript's `\s`) is skipped; where nothing matches, characters are
// dropped up to the next place where something does, and that run is one error. The tokens are
// Chevrotain `IToken`s of the shape its lexer makes with `positionTracking: 'onlyOffset'`
// (`image`, `startOffset`, `tokenTypeIdx`, `tokenType`), fed to the parser as its input.

// ---------------------------------------------------------------------------------------------
// Categories: one token type standing for several, so that the parser consumes a value, a field
// name or a comparator with one `CONSUME` rather than an `OR` over each kind. Their labels are
// what an error message says is expected.

/** Any token a value or a field may be: bare text, string, number, duration, timestamp, name. */
export const Value = createToken({ name: 'Value', label: 'a field or value' });
/** A field name after a dot: a value's token, or `AND`/`OR`/`NOT` used as a name (`a.AND`). */
export const FieldName = createToken({
  name: 'FieldName',
  label: 'a field or value or AND or OR or NOT',
});
/** `<=`, `>=`, `!=`, `<`, `>`, `=` or `:`. */
export const ComparatorToken = createToken({ name: 'Comparator', label: 'a comparator' });
/** A regex-style pattern, quoted or not. */
export const RegexLiteral = createToken({ name: 'RegexLiteral', label: 'a pattern' });

const VALUE = [Value, FieldName];

// ---------------------------------------------------------------------------------------------
// AIP-160, in the order they are tried.

/** `"…"` or `'…'`: any character but the quote and a newline, or a backslash and any character. */
export const StringLiteral = createToken({
  name: 'StringLiteral',
  label: 'a string',
  categories: VALUE,
});
/** A quote whose string never closes (to a newline or the end); the parser reports it. */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  label: 'a string',
  categories: VALUE,
});
/** `\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})`. */
export const Timestamp = createToken({
  name: 'Timestamp',
  label: 'a timestamp',
  categories: VALUE,
});
/** `-?\d+(\.\d+)?s`. */
export const DurationLiteral = createToken({
  name: 'DurationLiteral',
  label: 'a duration',
  categories: VALUE,
});
/** `-?\d+(\.\d+)?([eE][+-]?\d+)?`. */
export const NumberLiteral = createToken({
  name: 'NumberLiteral',
  label: 'a number',
  categories: VALUE,
});
/** `AND`, `OR` or `NOT` written directly before `(`: a call of a function so named (EBNF). */
export const KeywordName = createToken({
  name: 'KeywordName',
  label: 'a function name',
  categories: VALUE,
});
export const And = createToken({ name: 'And', label: 'AND', categories: [FieldName] });
export const Or = createToken({ name: 'Or', label: 'OR', categories: [FieldName] });
export const Not = createToken({ name: 'Not', label: 'NOT', categories: [FieldName] });
/** A bare word: no whitespace, no `( ) . = : < > ! , " '`, and not starting with `-`. */
export const Text = createToken({ name: 'Text', label: 'text', categories: VALUE });
export const Minus = createToken({ name: 'Minus', label: "'-'" });
const comparator = (name: string, label: string) =>
  createToken({ name, label, categories: [ComparatorToken] });
export const LessEquals = comparator('LessEquals', "'<='");
export const GreaterEquals = comparator('GreaterEquals', "'>='");
export const NotEquals = comparator('NotEquals', "'!='");
export const LessThan = comparator('LessThan', "'<'");
export const GreaterThan = comparator('GreaterThan', "'>'");
export const Equals = comparator('Equals', "'='");
export const Has = comparator('Has', "':'");
export const LParen = createToken({ name: 'LParen', label: "'('" });
/**
 * `(` directly after a value's token, with no space between: it opens a call's arguments
 * (`f(x)`, `a.b.f(x)`), where `(` after a space opens a composite (`a (b OR c)`).
 */
export const CallLParen = createToken({ name: 'CallLParen', label: "'('" });
export const RParen = createToken({ name: 'RParen', label: "')'" });
export const Comma = createToken({ name: 'Comma', label: "','" });
export const Dot = createToken({ name: 'Dot', label: "'.'" });

// ---------------------------------------------------------------------------------------------
// Compute Engine regular-expression style, in the order they are tried. Which token may come
// next depends on the previous one (an operator is only an operator after a field, a literal
// only after an operator).

/** `eq` or `ne` after a field and a space, followed by a space, `)` or the end. */
export const RegexOperator = createToken({ name: 'RegexOperator', label: "'eq' or 'ne'" });
/** A quoted pattern after an operator; backslashes stay (RE2 reads them), `\"` does not close it. */
export const RegexQuoted = createToken({
  name: 'RegexQuoted',
  label: 'a pattern',
  categories: [RegexLiteral],
});
/**
 * An unquoted pattern after an operator. Outside parentheses it is a run of non-space
 * characters. Inside a parenthesized term it runs to the `)` that closes the term: balanced
 * parentheses inside belong to the pattern, and trailing spaces do not.
 */
export const RegexUnquoted = createToken({
  name: 'RegexUnquoted',
  label: 'a pattern',
  categories: [RegexLiteral],
});
export const RegexLParen = createToken({ name: 'RegexLParen', label: "'('" });
export const RegexRParen = createToken({ name: 'RegexRParen', label: "')'" });
/** `AND`, `OR` or `NOT` (a longer field name wins): reported as `mixed_filter_styles`. */
export const RegexAipKeyword = createToken({ name: 'RegexAipKeyword', label: 'AND, OR or NOT' });
/** A dotted field path: `[A-Za-z_]\w*(\.[A-Za-z_]\w*)*` (`name`, `scheduling.automaticRestart`). */
export const RegexField = createToken({ name: 'RegexField', label: 'a field name' });
/** AIP-160 syntax met inside a regex-style filter (`<= >= != = < > :`): `mixed_filter_styles`. */
export const RegexAipComparator = createToken({
  name: 'RegexAipComparator',
  label: 'an AIP-160 comparator',
});
/** Anything else up to a space or parenthesis, so that the parser reports it with context. */
export const RegexOther = createToken({ name: 'RegexOther', label: 'text' });

export const allTokens: TokenType[] = [
  Value,
  FieldName,
  ComparatorToken,
  RegexLiteral,
  StringLiteral,
  UnterminatedString,
  Timestamp,
  DurationLiteral,
  NumberLiteral,
  KeywordName,
  And,
  Or,
  Not,
  Text,
  Minus,
  LessEquals,
  GreaterEquals,
  NotEquals,
  LessThan,
  GreaterThan,
  Equals,
  Has,
  LParen,
  CallLParen,
  RParen,
  Comma,
  Dot,
  RegexOperator,
  RegexQuoted,
  RegexUnquoted,
  RegexLParen,
  RegexRParen,
  RegexAipKeyword,
  RegexField,
  RegexAipComparator,
  RegexOther,
];

// ---------------------------------------------------------------------------------------------
// The scanner

/** Where the scanner found nothing it knows: a run of characters that start no token. */
export interface LexError {
  offset: number;
  length: number;
}

/** What {@link filterLexer}.tokenize returns: the tokens, and every run that lexed as nothing. */
export interface Lexed {
  tokens: IToken[];
  errors: LexError[];
}

const NON_ASCII_SPACE = /\s/;

/** Whether a character code matches JavaScript's `\s` (what `String.prototype.trim` removes). */
export function isSpaceCode(code: number): boolean {
  return code < 128
    ? code === 32 || (code >= 9 && code <= 13)
    : NON_ASCII_SPACE.test(String.fromCharCode(code));
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** Per ASCII character: whether it may continue a bare word (not `\s`, `( ) . = : < > ! , " '`). */
const IN_TEXT = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  IN_TEXT[code] = isSpaceCode(code) || '().=:<>!,"\''.includes(String.fromCharCode(code)) ? 0 : 1;
}
const inText = (code: number) => (code < 128 ? IN_TEXT[code] === 1 : !isSpaceCode(code));

/** The length of the bare word at `at` (0 if none): the `Text` token's pattern. */
function textLength(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === 45 /* - */ || !inText(first)) return 0;
  let end = at + 1;
  while (end < text.length && inText(text.charCodeAt(end))) end++;
  return end - at;
}

/** The end of `\d+` from `at` (`at` itself if no digit). */
function digitsEnd(text: string, at: number): number {
  while (isDigit(text.charCodeAt(at))) at++;
  return at;
}

/** The end of `\d{n}` at `at`, or -1. */
function fixedDigits(text: string, at: number, n: number): number {
  for (let i = 0; i < n; i++) if (!isDigit(text.charCodeAt(at + i))) return -1;
  return at + n;
}

/** The end of `(\.\d+)?` at `at`. */
function fraction(text: string, at: number): number {
  if (text.charCodeAt(at) !== 46 /* . */) return at;
  const end = digitsEnd(text, at + 1);
  return end > at + 1 ? end : at;
}

const TIMESTAMP_PARTS: readonly (readonly [number, string])[] = [
  [4, '-'],
  [2, '-'],
  [2, 'T'],
  [2, ':'],
  [2, ':'],
  [2, ''],
];

/** The end of a timestamp at `at`, or -1 (the `Timestamp` token's pattern). */
function timestampEnd(text: string, at: number): number {
  // `\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`, each digit group followed by its separator.
  let i = at;
  for (const [n, separator] of TIMESTAMP_PARTS) {
    i = fixedDigits(text, i, n);
    if (i === -1) return -1;
    if (separator === '') break;
    if (separator === 'T' ? text[i] !== 'T' && text[i] !== 't' : text[i] !== separator) return -1;
    i++;
  }
  i = fraction(text, i);
  const zone = text[i];
  if (zone === 'Z' || zone === 'z') return i + 1;
  if (zone !== '+' && zone !== '-') return -1;
  i = fixedDigits(text, i + 1, 2);
  if (i === -1 || text[i] !== ':') return -1;
  return fixedDigits(text, i + 1, 2);
}

/** Set by {@link numberEnds}: where a duration and a number at its offset end (-1: none). */
let durationEnd = -1;
let numberEnd = -1;

/** Where a number and a duration at `at` end (their tokens' patterns), in the two above. */
function numberEnds(text: string, at: number): void {
  durationEnd = -1;
  numberEnd = -1;
  const start = text.charCodeAt(at) === 45 /* - */ ? at + 1 : at;
  const integer = digitsEnd(text, start);
  if (integer === start) return;
  const decimal = fraction(text, integer);
  durationEnd = text.charCodeAt(decimal) === 115 /* s */ ? decimal + 1 : -1;
  numberEnd = decimal;
  const e = text.charCodeAt(decimal);
  if (e === 101 || e === 69 /* e E */) {
    const sign = text.charCodeAt(decimal + 1);
    const from = sign === 43 || sign === 45 /* + - */ ? decimal + 2 : decimal + 1;
    const exponent = digitsEnd(text, from);
    if (exponent > from) numberEnd = exponent;
  }
}

/** The end of the string at `at` (a quote): its closing quote's end, or negative if unclosed. */
function stringEnd(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  let i = at + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) {
      if (i + 1 >= text.length) break;
      i += 2;
    } else if (c === 10 /* \n */) break;
    else if (c === quote) return i + 1;
    else i++;
  }
  // Unterminated: the run up to a newline, the end, or a final lone backslash.
  return -i;
}

/** The keyword token type (`And`, `Or`, `Not`) spelled at `at`, or undefined. */
function keywordAt(text: string, at: number): TokenType | undefined {
  const c = text.charCodeAt(at);
  const c1 = text.charCodeAt(at + 1);
  if (c === 79 /* O */) return c1 === 82 /* R */ ? Or : undefined;
  const c2 = text.charCodeAt(at + 2);
  if (c === 65 /* A */) return c1 === 78 && c2 === 68 /* ND */ ? And : undefined;
  if (c === 78 /* N */) return c1 === 79 && c2 === 84 /* OT */ ? Not : undefined;
  return undefined;
}
const keywordLength = (keyword: TokenType) => (keyword === Or ? 2 : 3);

/**
 * The type of the token the last `…TokenAt` call found; they return its length (0 for none)
 * rather than a pair, so that lexing allocates nothing but the tokens.
 */
let matched: TokenType = Text;
const found = (type: TokenType, length: number) => {
  matched = type;
  return length;
};

/** Single- and two-character AIP-160 tokens, by their first character. */
function punctuationAt(text: string, at: number, code: number): number {
  const next = text.charCodeAt(at + 1);
  switch (code) {
    case 45:
      return found(Minus, 1);
    case 60:
      return next === 61 ? found(LessEquals, 2) : found(LessThan, 1);
    case 62:
      return next === 61 ? found(GreaterEquals, 2) : found(GreaterThan, 1);
    case 33:
      return next === 61 ? found(NotEquals, 2) : 0;
    case 61:
      return found(Equals, 1);
    case 58:
      return found(Has, 1);
    case 40:
      return found(LParen, 1);
    case 41:
      return found(RParen, 1);
    case 44:
      return found(Comma, 1);
    case 46:
      return found(Dot, 1);
    default:
      return 0;
  }
}

/** A token that wins unless a longer bare word starts at the same place (`longer_alt`). */
function orLongerText(text: string, at: number, type: TokenType, end: number): number {
  const word = textLength(text, at);
  return word > end - at ? found(Text, word) : found(type, end - at);
}

/** The length of the AIP-160 token at `at` (not whitespace), or 0 where none matches. */
function aipTokenAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 34 || code === 39 /* " ' */) {
    const end = stringEnd(text, at);
    return end > 0 ? found(StringLiteral, end - at) : found(UnterminatedString, -end - at);
  }
  if (isDigit(code) || code === 45 /* - */) {
    const timestamp = code === 45 ? -1 : timestampEnd(text, at);
    if (timestamp !== -1) return orLongerText(text, at, Timestamp, timestamp);
    numberEnds(text, at);
    if (durationEnd !== -1) return orLongerText(text, at, DurationLiteral, durationEnd);
    if (numberEnd !== -1) return orLongerText(text, at, NumberLiteral, numberEnd);
  }
  const keyword = keywordAt(text, at);
  if (keyword !== undefined) {
    const length = keywordLength(keyword);
    if (text.charCodeAt(at + length) === 40 /* ( */) return found(KeywordName, length);
    return orLongerText(text, at, keyword, at + length);
  }
  const word = textLength(text, at);
  if (word > 0) return found(Text, word);
  return punctuationAt(text, at, code);
}

/** Tokens after which `(` with no space between opens a call's arguments. */
const CALLABLE = new Set<TokenType>([
  Text,
  StringLiteral,
  UnterminatedString,
  Timestamp,
  DurationLiteral,
  NumberLiteral,
  KeywordName,
]);

// Regex style -----------------------------------------------------------------------------------

const isSpace = (c: string | undefined) => c !== undefined && isSpaceCode(c.charCodeAt(0));

/** What the regex-style scanner knows of the tokens before: the last one and the open `(`. */
interface RegexContext {
  last: IToken | undefined;
  depth: number;
}

/** `eq`/`ne` after a field and a space, followed by the end, a space or `)`. */
function regexOperatorAt(text: string, at: number, context: RegexContext): number {
  if (context.last?.tokenType !== RegexField || !isSpace(text[at - 1])) return 0;
  const word = text.slice(at, at + 2);
  if (word !== 'eq' && word !== 'ne') return 0;
  const after = text[at + 2];
  return after === undefined || after === ')' || isSpace(after) ? 2 : 0;
}

/** The length of a quoted pattern at `at` (to its closing quote, or the end if unclosed). */
function regexQuotedLength(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1 - at;
  }
  return text.length - at; // unterminated: the parser reports it
}

/** The length of an unquoted pattern at `at` (0 if it would be empty). */
function regexUnquotedLength(text: string, at: number, inParens: boolean): number {
  let i = at;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (!inParens && isSpace(c)) break;
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0 && inParens) break;
      depth--;
    }
  }
  let end = Math.min(i, text.length);
  // Trailing spaces are not part of the pattern, unless escaped (`a\ ` is "a" and a space).
  while (end > at && isSpace(text[end - 1]) && !isEscaped(text, end - 1, at)) end--;
  return end - at;
}

/** Whether the character at `index` follows an odd run of backslashes (not before `from`). */
function isEscaped(text: string, index: number, from: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= from && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

const isWordStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isWordPart = (c: number) => isWordStart(c) || isDigit(c);

/** The length of a dotted field path at `at` (0 if none). */
function regexFieldLength(text: string, at: number): number {
  if (!isWordStart(text.charCodeAt(at))) return 0;
  let end = at + 1;
  for (;;) {
    while (isWordPart(text.charCodeAt(end))) end++;
    if (text.charCodeAt(end) !== 46 /* . */ || !isWordStart(text.charCodeAt(end + 1))) break;
    end += 2;
  }
  return end - at;
}

/** The length of the regex-style token at `at` (not whitespace), or 0 where none matches. */
function regexTokenAt(text: string, at: number, context: RegexContext): number {
  const operator = regexOperatorAt(text, at, context);
  if (operator > 0) return found(RegexOperator, operator);
  const c = text[at];
  if (context.last?.tokenType === RegexOperator && isSpace(text[at - 1])) {
    if (c === '"' || c === "'") return found(RegexQuoted, regexQuotedLength(text, at));
    const unquoted = regexUnquotedLength(text, at, context.depth > 0);
    if (unquoted > 0) return found(RegexUnquoted, unquoted);
  }
  if (c === '(') return found(RegexLParen, 1);
  if (c === ')') return found(RegexRParen, 1);
  const field = regexFieldLength(text, at);
  const keyword = keywordAt(text, at);
  if (keyword !== undefined && field <= keywordLength(keyword)) {
    return found(RegexAipKeyword, keywordLength(keyword));
  }
  if (field > 0) return found(RegexField, field);
  const next = text[at + 1];
  if (c === '<' || c === '>' || c === '!') {
    if (next === '=') return found(RegexAipComparator, 2);
    if (c !== '!') return found(RegexAipComparator, 1);
  } else if (c === '=' || c === ':') return found(RegexAipComparator, 1);
  let end = at + 1;
  while (end < text.length && !isSpace(text[end]) && text[end] !== '(' && text[end] !== ')') end++;
  return found(RegexOther, end - at);
}

// The scan -------------------------------------------------------------------------------------

function scan(text: string, mode: 'aip' | 'regex'): Lexed {
  const tokens: IToken[] = [];
  const errors: LexError[] = [];
  const regex = mode === 'regex';
  const context: RegexContext = { last: undefined, depth: 0 };
  let previous: TokenType | undefined;
  let at = 0;
  while (at < text.length) {
    if (isSpaceCode(text.charCodeAt(at))) {
      at++;
      continue;
    }
    const length = regex ? regexTokenAt(text, at, context) : aipTokenAt(text, at);
    if (length === 0) {
      at = skipUnknown(text, at, regex, context, errors);
      continue;
    }
    let tokenType = matched;
    if (tokenType === LParen && isCallOpen(text, at, previous)) tokenType = CallLParen;
    const token = {
      image: text.slice(at, at + length),
      startOffset: at,
      tokenTypeIdx: tokenType.tokenTypeIdx!,
      tokenType,
    } as IToken;
    tokens.push(token);
    previous = tokenType;
    if (regex) {
      context.last = token;
      if (tokenType === RegexLParen) context.depth++;
      else if (tokenType === RegexRParen) context.depth--;
    }
    at += length;
  }
  return { tokens, errors };
}

/**
 * Drops characters from `at` up to the next place where whitespace or a token starts, records
 * them as one error, and returns where lexing goes on.
 */
function skipUnknown(
  text: string,
  at: number,
  regex: boolean,
  context: RegexContext,
  errors: LexError[],
): number {
  const start = at;
  do at++;
  while (
    at < text.length &&
    !isSpaceCode(text.charCodeAt(at)) &&
    (regex ? regexTokenAt(text, at, context) : aipTokenAt(text, at)) === 0
  );
  errors.push({ offset: start, length: at - start });
  return at;
}

/** Whether the `(` at `at` opens a call: directly after a value's token, with no space between. */
const isCallOpen = (text: string, at: number, previous: TokenType | undefined) =>
  previous !== undefined && CALLABLE.has(previous) && !isSpaceCode(text.charCodeAt(at - 1));

/**
 * The filter lexer: `tokenize(text, mode)` gives every token and every run of characters that
 * starts none. It never throws.
 */
export const filterLexer = {
  tokenize(text: string, mode: 'aip' | 'regex'): Lexed {
    return scan(text, mode);
  },
};
