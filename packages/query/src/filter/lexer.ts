import { type CustomPatternMatcherReturn, createToken, type IToken, Lexer } from 'chevrotain';

// One lexer with a mode per filter language. The style is detected before lexing (see
// detect-style.ts), and the matching mode is chosen as the lexer's initial mode.

const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });

// ---------------------------------------------------------------------------------------------
// AIP-160

const CHEVROTAIN_BLOCK = 255;

/**
 * Every character that does not match `excluded`, for Chevrotain's first-character optimisation
 * (it cannot derive that from a negated class, and one token it cannot optimise turns the
 * optimisation off for its whole mode). Above U+00FF Chevrotain groups characters in blocks of
 * 255 (`255 + floor(code / 255)`), so one character per block stands for the whole block. (Steps
 * of 256 missed one block in 255, such as U+FE01–U+FEFF: a bare word starting with the emoji
 * variation selector U+FE0F was an "unexpected character".)
 */
function startCharsExcept(excluded: RegExp): number[] {
  const codes: number[] = [];
  for (let code = 0; code <= 0xff; code++) {
    if (!excluded.test(String.fromCharCode(code))) codes.push(code);
  }
  for (let code = 0x100; code <= 0xffff; code++) {
    if (code === 0x100 || code % CHEVROTAIN_BLOCK === 0) codes.push(code);
  }
  return codes;
}

/** Every character a bare word may start with. */
const TEXT_START_CHARS = startCharsExcept(/[\s().=:<>!,"'-]/);

/** A bare word: no whitespace, no `( ) . = : < > ! , " '`, and not starting with `-`. */
export const Text = createToken({
  name: 'Text',
  label: 'text',
  pattern: /[^\s().=:<>!,"'-][^\s().=:<>!,"']*/,
  start_chars_hint: TEXT_START_CHARS,
});
/** `AND`, `OR` or `NOT` written directly before `(`: a call of a function so named (EBNF). */
export const KeywordName = createToken({
  name: 'KeywordName',
  label: 'a function name',
  pattern: /(?:AND|OR|NOT)(?=\()/,
});
export const And = createToken({ name: 'And', label: 'AND', pattern: /AND/, longer_alt: Text });
export const Or = createToken({ name: 'Or', label: 'OR', pattern: /OR/, longer_alt: Text });
export const Not = createToken({ name: 'Not', label: 'NOT', pattern: /NOT/, longer_alt: Text });
export const StringLiteral = createToken({
  name: 'StringLiteral',
  label: 'a string',
  pattern: /"(?:[^"\\\n]|\\[\s\S])*"|'(?:[^'\\\n]|\\[\s\S])*'/,
});
/** A quote whose string never closes; the parser reports it as `unterminated_string`. */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  label: 'a string',
  pattern: /["'](?:[^\\\n]|\\[\s\S])*/,
});
export const Timestamp = createToken({
  name: 'Timestamp',
  label: 'a timestamp',
  pattern: /\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})/,
  longer_alt: Text,
});
export const DurationLiteral = createToken({
  name: 'DurationLiteral',
  label: 'a duration',
  pattern: /-?\d+(?:\.\d+)?s/,
  longer_alt: Text,
});
export const NumberLiteral = createToken({
  name: 'NumberLiteral',
  label: 'a number',
  pattern: /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  longer_alt: Text,
});
export const Minus = createToken({ name: 'Minus', label: "'-'", pattern: /-/ });
export const LessEquals = createToken({ name: 'LessEquals', label: "'<='", pattern: /<=/ });
export const GreaterEquals = createToken({ name: 'GreaterEquals', label: "'>='", pattern: />=/ });
export const NotEquals = createToken({ name: 'NotEquals', label: "'!='", pattern: /!=/ });
export const LessThan = createToken({ name: 'LessThan', label: "'<'", pattern: /</ });
export const GreaterThan = createToken({ name: 'GreaterThan', label: "'>'", pattern: />/ });
export const Equals = createToken({ name: 'Equals', label: "'='", pattern: /=/ });
export const Has = createToken({ name: 'Has', label: "':'", pattern: /:/ });
export const LParen = createToken({ name: 'LParen', label: "'('", pattern: /\(/ });
export const RParen = createToken({ name: 'RParen', label: "')'", pattern: /\)/ });
export const Comma = createToken({ name: 'Comma', label: "','", pattern: /,/ });
export const Dot = createToken({ name: 'Dot', label: "'.'", pattern: /\./ });

const aipTokens = [
  WhiteSpace,
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
  RParen,
  Comma,
  Dot,
];

// ---------------------------------------------------------------------------------------------
// Compute Engine regular-expression style. Which token may come next depends on the previous
// one (an operator is only an operator after a field, a literal only after an operator), so
// the context-sensitive tokens use custom matchers that look at the tokens already matched.

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const last = (tokens: IToken[]) => tokens[tokens.length - 1];

/** A dotted field path: `name`, `scheduling.automaticRestart`. */
export const RegexField = createToken({
  name: 'RegexField',
  label: 'a field name',
  pattern: /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/,
});

export const RegexOperator = createToken({
  name: 'RegexOperator',
  label: "'eq' or 'ne'",
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): CustomPatternMatcherReturn | null {
      if (last(tokens)?.tokenType !== RegexField || !isSpace(text[offset - 1])) return null;
      const word = text.slice(offset, offset + 2);
      if (word !== 'eq' && word !== 'ne') return null;
      const after = text[offset + 2];
      if (after !== undefined && after !== ')' && !isSpace(after)) return null;
      return [word];
    },
  },
  line_breaks: false,
  start_chars_hint: ['e', 'n'],
});

const afterOperator = (text: string, offset: number, tokens: IToken[]) =>
  last(tokens)?.tokenType === RegexOperator && isSpace(text[offset - 1]);

/** A quoted pattern; backslashes stay as they are (RE2 reads them), `\"` does not close it. */
export const RegexQuoted = createToken({
  name: 'RegexQuoted',
  label: 'a pattern',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): CustomPatternMatcherReturn | null {
      const quote = text[offset];
      if ((quote !== '"' && quote !== "'") || !afterOperator(text, offset, tokens)) return null;
      for (let i = offset + 1; i < text.length; i++) {
        const c = text[i];
        if (c === '\\') i++;
        else if (c === quote) return [text.slice(offset, i + 1)];
      }
      return [text.slice(offset)]; // unterminated: the parser reports it
    },
  },
  line_breaks: true,
  start_chars_hint: ['"', "'"],
});

/**
 * An unquoted pattern. Outside parentheses it is a run of non-space characters. Inside a
 * parenthesized term it runs to the `)` that closes the term: balanced parentheses inside
 * belong to the pattern, and trailing spaces do not.
 */
export const RegexUnquoted = createToken({
  name: 'RegexUnquoted',
  label: 'a pattern',
  pattern: {
    exec(text: string, offset: number, tokens: IToken[]): CustomPatternMatcherReturn | null {
      if (!afterOperator(text, offset, tokens)) return null;
      const inParens = openDepth(tokens) > 0;
      let i = offset;
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
      while (end > offset && isSpace(text[end - 1]) && !isEscaped(text, end - 1, offset)) end--;
      return end > offset ? [text.slice(offset, end)] : null;
    },
  },
  line_breaks: true,
  // It may start with any character (after an operator); the hint keeps the mode optimised.
  start_chars_hint: startCharsExcept(/(?!)/),
});

/** Whether the character at `index` follows an odd run of backslashes (not before `from`). */
function isEscaped(text: string, index: number, from: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= from && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

function openDepth(tokens: IToken[]): number {
  let depth = 0;
  for (const t of tokens) {
    if (t.tokenType === RegexLParen) depth++;
    else if (t.tokenType === RegexRParen) depth--;
  }
  return depth;
}

export const RegexLParen = createToken({ name: 'RegexLParen', label: "'('", pattern: /\(/ });
export const RegexRParen = createToken({ name: 'RegexRParen', label: "')'", pattern: /\)/ });
/** AIP-160 syntax met inside a regex-style filter: reported as `mixed_filter_styles`. */
export const RegexAipComparator = createToken({
  name: 'RegexAipComparator',
  label: 'an AIP-160 comparator',
  pattern: /<=|>=|!=|=|<|>|:/,
});
export const RegexAipKeyword = createToken({
  name: 'RegexAipKeyword',
  label: 'AND, OR or NOT',
  pattern: /AND|OR|NOT/,
  longer_alt: RegexField,
});
/** Anything else, so that the parser (not the lexer) reports it with context. */
export const RegexOther = createToken({
  name: 'RegexOther',
  label: 'text',
  pattern: /[^\s()]+/,
  start_chars_hint: startCharsExcept(/[\s()]/),
});

const regexTokens = [
  WhiteSpace,
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

export const allTokens = [...new Set([...aipTokens, ...regexTokens])];

export const filterLexer = new Lexer(
  { modes: { aip: aipTokens, regex: regexTokens }, defaultMode: 'aip' },
  // Throws at load if a token defeats the first-character optimisation (a mode without it lexes
  // by trying every pattern at every position).
  { positionTracking: 'onlyOffset', ensureOptimizations: true },
);
