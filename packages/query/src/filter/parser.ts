import {
  EmbeddedActionsParser,
  EOF,
  type IOrAlt,
  type IParserErrorMessageProvider,
  type IRecognitionException,
  type IToken,
  type TokenType,
} from 'chevrotain';
import { ListkitError, type Span } from '../errors.js';
import type {
  ArgNode,
  CallNode,
  ComparableNode,
  Comparator,
  CompositeNode,
  ExpressionNode,
  FilterAst,
  MemberNode,
  RegexPattern,
  RegexTermNode,
  RestrictionNode,
  Segment,
  SegmentKind,
} from './ast.js';
import { detectFilterStyle } from './detect-style.js';
import {
  And,
  allTokens,
  CallLParen,
  Comma,
  ComparatorToken,
  Dot,
  DurationLiteral,
  Equals,
  FieldName,
  filterLexer,
  GreaterEquals,
  GreaterThan,
  Has,
  KeywordName,
  LessEquals,
  LessThan,
  LParen,
  Minus,
  Not,
  NotEquals,
  NumberLiteral,
  Or,
  RegexAipComparator,
  RegexAipKeyword,
  RegexField,
  RegexLiteral,
  RegexLParen,
  RegexOperator,
  RegexRParen,
  RParen,
  StringLiteral,
  Text,
  Timestamp,
  UnterminatedString,
  Value,
} from './lexer.js';
import { DEFAULT_FILTER_LIMITS, type FilterLimits, MAX_FILTER_DEPTH } from './limits.js';
import { decodeString } from './unescape.js';

const COMPARATORS = new Map<TokenType, Comparator>([
  [LessEquals, '<='],
  [GreaterEquals, '>='],
  [NotEquals, '!='],
  [LessThan, '<'],
  [GreaterThan, '>'],
  [Equals, '='],
  [Has, ':'],
]);

/** A segment's kind by its token's `tokenTypeIdx`. */
const SEGMENT_KINDS: SegmentKind[] = [];
for (const [type, kind] of [
  [Text, 'text'],
  [StringLiteral, 'string'],
  [NumberLiteral, 'number'],
  [DurationLiteral, 'duration'],
  [Timestamp, 'timestamp'],
  [KeywordName, 'keyword'],
  [And, 'keyword'],
  [Or, 'keyword'],
  [Not, 'keyword'],
] as const) {
  SEGMENT_KINDS[type.tokenTypeIdx!] = kind;
}

const describe = (token: IToken) =>
  token.tokenType === EOF ? 'the end of the filter' : `'${token.image}'`;
const label = (type: TokenType) => type.LABEL ?? type.name;

const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) =>
    `expected ${label(expected)} but found ${describe(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${describe(firstRedundant)}`,
  buildNoViableAltMessage: ({ expectedPathsPerAlt, actual }) =>
    `expected ${expectedList(expectedPathsPerAlt.flat())} but found ${describe(actual[0]!)}`,
  buildEarlyExitMessage: ({ expectedIterationPaths, actual }) =>
    `expected ${expectedList(expectedIterationPaths)} but found ${describe(actual[0]!)}`,
};

function expectedList(paths: TokenType[][]): string {
  const firsts = [...new Set(paths.map((p) => p[0]).filter((t) => t !== undefined))];
  const values = new Set<TokenType>([
    Value,
    Text,
    StringLiteral,
    UnterminatedString,
    KeywordName,
    NumberLiteral,
    DurationLiteral,
    Timestamp,
  ]);
  const names = new Set<string>();
  for (const t of firsts) names.add(values.has(t) ? 'a field or value' : label(t));
  return [...names].join(' or ') || 'more';
}

const spanOf = (token: IToken): Span => ({
  start: token.startOffset,
  end: token.startOffset + token.image.length,
});
const join = (a: { span: Span }, b: { span: Span }): Span => ({
  start: a.span.start,
  end: b.span.end,
});
/** Whether `c` matches `\s`: ASCII answered by code, the rest by the regex. */
const isSpace = (c: string | undefined) => {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return code < 128 ? code === 32 || (code >= 9 && code <= 13) : /\s/.test(c);
};
/** The first occurrence index of a restriction's productions (see `restrictionAt`). */
const RESTRICTION = 10;

const MIXED_MESSAGE =
  'AIP-160 and regular-expression (eq/ne) filter styles cannot be mixed in one filter';

/**
 * The Chevrotain parser for both filter languages. One instance is reused for every parse
 * (construction and self-analysis cost about 1.5 ms); it is not re-entrant, which is fine in
 * single-threaded JavaScript because nothing inside a parse starts another parse.
 *
 * The semantic actions are plain code behind `if (this.RECORDING_PHASE)` (Chevrotain runs every
 * rule once while recording the grammar, with placeholder tokens) rather than `ACTION(() => …)`,
 * which costs a closure per action per parse.
 */
class FilterParser extends EmbeddedActionsParser {
  private source = '';
  private limits: FilterLimits = DEFAULT_FILTER_LIMITS;
  private depth = 0;
  private terms = 0;

  /**
   * @param validate run Chevrotain's grammar validations (ambiguities, left recursion): a tenth
   * of a command-line run's start-up, so only the test of the grammar ({@link
   * filterGrammarErrors}) runs them; the grammar is fixed at build time.
   */
  constructor(validate = false) {
    super(allTokens, {
      recoveryEnabled: false,
      maxLookahead: 1,
      errorMessageProvider: messages,
      skipValidations: !validate,
    });
    this.performSelfAnalysis();
  }

  begin(source: string, tokens: IToken[], limits: FilterLimits) {
    this.source = source;
    this.limits = limits;
    this.depth = 0;
    this.terms = 0;
    this.input = tokens;
  }

  private fail(
    code: 'missing_whitespace' | 'unexpected_token',
    message: string,
    span: Span,
  ): never {
    throw ListkitError.of('filter', code, message, span, this.source);
  }
  private spaceBefore(token: IToken) {
    return isSpace(this.source[token.startOffset - 1]);
  }
  private spaceAfter(token: IToken) {
    return isSpace(this.source[token.startOffset + token.image.length]);
  }
  private countTerm(span: Span) {
    if (++this.terms > this.limits.maxTerms) {
      throw ListkitError.of(
        'filter',
        'too_many_terms',
        `the filter has more than ${this.limits.maxTerms} terms`,
        span,
        this.source,
      );
    }
  }
  private enter(token: IToken) {
    if (++this.depth > this.limits.maxDepth) {
      throw ListkitError.of(
        'filter',
        'too_deep',
        `the filter nests deeper than ${this.limits.maxDepth} levels`,
        spanOf(token),
        this.source,
      );
    }
  }

  // ------------------------------------------------------------------------- AIP-160

  /**
   * The EBNF's `filter` and `expression` in one rule: a composite's expression recurses into it
   * (only the root call checks that all input was parsed).
   */
  aipFilter = this.RULE('aipFilter', (): ExpressionNode => {
    const operands = [this.SUBRULE(this.sequence)];
    this.MANY(() => {
      const and = this.CONSUME(And);
      if (!this.RECORDING_PHASE) this.requireSpaceAround(and);
      operands.push(this.SUBRULE2(this.sequence));
    });
    if (this.RECORDING_PHASE || operands.length === 1) return operands[0]!;
    return { type: 'and', operands, span: join(operands[0]!, operands[operands.length - 1]!) };
  });

  /**
   * The EBNF's `sequence` with its `factor`s (`term {OR term}`) inlined, as one loop: each term
   * after the first joins the current factor when `OR` comes before it, and starts the next
   * factor when only whitespace does (one repetition, and one lookahead when the sequence is a
   * single term, where a loop per factor took two).
   */
  private sequence = this.RULE('sequence', (): ExpressionNode => {
    let factor = [this.SUBRULE(this.term)];
    const operands: ExpressionNode[] = [];
    this.MANY(() => {
      const or = this.OPTION(() => this.CONSUME(Or));
      if (!this.RECORDING_PHASE) {
        if (or) this.requireSpaceAround(or);
        else {
          this.requireSeparation(this.LA(0), this.LA(1));
          operands.push(orOf(factor));
          factor = [];
        }
      }
      factor.push(this.SUBRULE2(this.term));
    });
    if (this.RECORDING_PHASE) return factor[0]!;
    operands.push(orOf(factor));
    this.rejectRegexTerms(operands);
    return operands.length === 1
      ? operands[0]!
      : { type: 'sequence', operands, span: join(operands[0]!, operands[operands.length - 1]!) };
  });

  // Alternatives are built once, as fields, rather than on every call (Chevrotain's performance
  // guide). The grammar is flattened where the AIP-160 EBNF only forwards: `simple` (composite
  // or restriction) is inlined into `term`, `comparator` and `arg` into `restriction`, and
  // `value`/`field` into `comparable`, because each Chevrotain rule call costs several times a
  // plain function call. Every alternative keeps its tokens in the same order, so the expected
  // tokens that error messages list are unchanged.
  private readonly termAlts: IOrAlt<ExpressionNode>[] = [
    {
      ALT: () => {
        const not = this.CONSUME(Not);
        const operand = this.SUBRULE(this.simple);
        if (this.RECORDING_PHASE) return operand;
        if (!this.spaceAfter(not)) {
          this.fail('missing_whitespace', 'NOT must be followed by whitespace', spanOf(not));
        }
        return {
          type: 'not',
          operand,
          syntax: 'NOT',
          span: { start: not.startOffset, end: operand.span.end },
        };
      },
    },
    {
      ALT: () => {
        const minus = this.CONSUME(Minus);
        const operand = this.SUBRULE2(this.simple);
        if (this.RECORDING_PHASE) return operand;
        if (this.spaceAfter(minus)) {
          this.fail(
            'unexpected_token',
            "'-' negates the term written directly after it; remove the space or write NOT",
            spanOf(minus),
          );
        }
        return {
          type: 'not',
          operand,
          syntax: '-',
          span: { start: minus.startOffset, end: operand.span.end },
        };
      },
    },
    { ALT: () => this.SUBRULE(this.composite) },
    { ALT: () => this.restrictionAt() },
  ];

  private term = this.RULE('term', (): ExpressionNode => this.OR(this.termAlts));

  private simple = this.RULE('simple', (): ExpressionNode => this.OR(this.simpleAlts));
  private readonly simpleAlts: IOrAlt<ExpressionNode>[] = [
    { ALT: () => this.SUBRULE(this.composite) },
    { ALT: () => this.SUBRULE(this.restriction) },
  ];

  private composite = this.RULE('composite', (): CompositeNode => {
    const open = this.CONSUME(LParen);
    if (!this.RECORDING_PHASE) this.enter(open);
    const expression = this.SUBRULE(this.aipFilter);
    const close = this.CONSUME(RParen);
    if (this.RECORDING_PHASE) return undefined as never;
    this.depth--;
    return {
      type: 'composite',
      expression,
      span: { start: open.startOffset, end: close.startOffset + 1 },
    };
  });

  private restriction = this.RULE('restriction', (): RestrictionNode => this.restrictionAt());

  /**
   * `comparable [comparator arg]`, written once and used by two rules: `restriction` and, in
   * its last alternative, `term` (where a restriction is the common case), so that the common
   * path does not pay a rule call for it. Chevrotain tells its productions apart by occurrence
   * index within a rule: this body uses indexes from {@link RESTRICTION} up, which no other
   * production of either rule uses.
   */
  private restrictionAt(): RestrictionNode {
    const comparable = this.comparableAt(RESTRICTION + 1);
    let comparator: IToken | undefined;
    let arg: ArgNode | undefined;
    this.option(RESTRICTION, () => {
      comparator = this.consume(RESTRICTION, ComparatorToken);
      arg = this.or(RESTRICTION, this.restrictionArgAlts);
    });
    if (this.RECORDING_PHASE) return undefined as never;
    const end = arg ? arg.span.end : comparable.span.end;
    const span = { start: comparable.span.start, end };
    this.countTerm(span);
    if (!comparator || !arg) return { type: 'restriction', comparable, span };
    return {
      type: 'restriction',
      comparable,
      comparator: COMPARATORS.get(comparator.tokenType)!,
      comparatorSpan: spanOf(comparator),
      arg,
      span,
    };
  }

  /** `arg` inlined into a restriction (the second comparable there). */
  private readonly restrictionArgAlts: IOrAlt<ArgNode>[] = [
    { ALT: () => this.subrule(RESTRICTION, this.composite) },
    { ALT: () => this.comparableAt(RESTRICTION + 2) },
  ];

  /** A function call's argument. */
  private arg = this.RULE('arg', (): ArgNode => this.OR(this.argAlts));
  private readonly argAlts: IOrAlt<ArgNode>[] = [
    { ALT: () => this.SUBRULE(this.composite) },
    { ALT: () => this.SUBRULE(this.comparable) },
  ];

  private comparable = this.RULE('comparable', (): ComparableNode => this.comparableAt(1));

  /**
   * A member `a.b.c`, or a call `a.b.f(x)` when `(` follows the name with no space: the
   * `comparable` rule's body, also inlined into a restriction twice. Its productions use the
   * occurrence indexes `k` and `k + 4`.
   */
  private comparableAt(k: number): ComparableNode {
    const first = this.consume(k, Value);
    const segments = this.RECORDING_PHASE ? [] : [this.segment(first)];
    this.many(k, () => {
      const dot = this.consume(k, Dot);
      // After a dot: a value, or a keyword used as a field name (`a.AND`).
      const fieldToken = this.consume(k, FieldName);
      if (this.RECORDING_PHASE) return;
      const field = this.segment(fieldToken);
      if (this.spaceBefore(dot) || this.spaceAfter(dot)) {
        this.fail(
          'unexpected_token',
          "no space is allowed around '.' in a field path",
          spanOf(dot),
        );
      }
      segments.push(field);
    });
    let call: CallNode | undefined;
    this.option(k, () => {
      const open = this.consume(k, CallLParen);
      if (!this.RECORDING_PHASE) this.enter(open);
      const args: ArgNode[] = [];
      this.option(k + 4, () => {
        args.push(this.subrule(k, this.arg));
        this.many(k + 4, () => {
          this.consume(k, Comma);
          args.push(this.subrule(k + 4, this.arg));
        });
      });
      const close = this.consume(k, RParen);
      if (this.RECORDING_PHASE) return;
      this.depth--;
      call = this.callOf(segments, args, close);
    });
    if (this.RECORDING_PHASE) return undefined as never;
    return (
      call ?? { type: 'member', segments, span: join(segments[0]!, segments[segments.length - 1]!) }
    );
  }

  private callOf(segments: Segment[], args: ArgNode[], close: IToken): CallNode {
    for (const s of segments) {
      if (s.kind !== 'text' && s.kind !== 'keyword') {
        this.fail('unexpected_token', 'a function name must be plain text', s.span);
      }
    }
    return {
      type: 'call',
      name: segments,
      args,
      span: { start: segments[0]!.span.start, end: close.startOffset + 1 },
    };
  }

  private segment(token: IToken): Segment {
    const span = spanOf(token);
    if (token.tokenType === UnterminatedString) {
      throw ListkitError.of(
        'filter',
        'unterminated_string',
        'unterminated string',
        span,
        this.source,
      );
    }
    const kind = SEGMENT_KINDS[token.tokenTypeIdx]!;
    if (kind === 'string') {
      const { value, literalStars } = decodeString(token.image, token.startOffset, this.source);
      return { kind, value, literalStars, span };
    }
    const literalStars: number[] = [];
    let value = token.image;
    if (kind === 'text' && value.includes('\\*')) {
      // In bare text `\*` is a literal star, as in strings.
      value = value.replace(/\\\*/g, (_m, at: number) => {
        literalStars.push(at - literalStars.length);
        return '*';
      });
    }
    return { kind, value, literalStars, span };
  }

  private requireSpaceAround(op: IToken) {
    const before = this.source[op.startOffset - 1];
    const after = this.source[op.startOffset + op.image.length];
    // At the very end there is nothing to separate; the parser then reports the missing term.
    const afterOk = after === undefined || isSpace(after) || after === '(';
    if ((!isSpace(before) && before !== ')') || !afterOk) {
      this.fail('missing_whitespace', `${op.image} must have whitespace on both sides`, spanOf(op));
    }
  }

  private requireSeparation(previous: IToken, next: IToken) {
    if (!this.spaceBefore(next) && previous.tokenType !== RParen && next.tokenType !== LParen) {
      this.fail('missing_whitespace', `expected whitespace before ${describe(next)}`, spanOf(next));
    }
  }

  /** `name eq abc` inside an AIP-160 filter is a regex-style term: the styles cannot mix. */
  private rejectRegexTerms(operands: ExpressionNode[]) {
    for (let i = 0; i + 2 < operands.length; i++) {
      const [field, op] = [operands[i]!, operands[i + 1]!];
      const word =
        op.type === 'restriction' && !op.comparator && op.comparable.type === 'member'
          ? op.comparable.segments
          : undefined;
      if (
        field.type === 'restriction' &&
        !field.comparator &&
        field.comparable.type === 'member' &&
        word?.length === 1 &&
        word[0]!.kind === 'text' &&
        (word[0]!.value === 'eq' || word[0]!.value === 'ne')
      ) {
        throw ListkitError.of(
          'filter',
          'mixed_filter_styles',
          `${MIXED_MESSAGE}: this term is regex style; write it as ${
            word[0]!.value === 'eq' ? "'='" : "'!='"
          } in AIP-160`,
          join(field, operands[i + 2]!),
          this.source,
        );
      }
    }
  }

  // ------------------------------------------------------------------------- regex style

  private readonly regexFilterAlts: IOrAlt<RegexTermNode[]>[] = [
    {
      ALT: () => {
        const terms: RegexTermNode[] = [];
        this.AT_LEAST_ONE(() => terms.push(this.SUBRULE(this.regexParenthesizedTerm)));
        return terms;
      },
    },
    { ALT: () => [this.SUBRULE(this.regexTerm)] },
  ];

  regexFilter = this.RULE('regexFilter', (): RegexTermNode[] => this.OR(this.regexFilterAlts));

  private regexParenthesizedTerm = this.RULE('regexParenthesizedTerm', (): RegexTermNode => {
    const open = this.CONSUME(RegexLParen);
    const term = this.SUBRULE(this.regexTerm);
    const close = this.CONSUME(RegexRParen);
    if (this.RECORDING_PHASE) return term;
    return {
      ...term,
      parenthesized: true,
      span: { start: open.startOffset, end: close.startOffset + 1 },
    };
  });

  private regexTerm = this.RULE('regexTerm', (): RegexTermNode => {
    const field = this.CONSUME(RegexField);
    const operator = this.CONSUME(RegexOperator);
    const literal = this.CONSUME(RegexLiteral);
    if (this.RECORDING_PHASE) return undefined as never;
    const span = { start: field.startOffset, end: literal.startOffset + literal.image.length };
    this.countTerm(span);
    return {
      type: 'regexTerm',
      field: this.regexField(field),
      operator: operator.image as 'eq' | 'ne',
      pattern: this.regexPattern(literal),
      parenthesized: false,
      span,
    };
  });

  private regexField(token: IToken): MemberNode {
    let offset = token.startOffset;
    const segments = token.image.split('.').map((value): Segment => {
      const span = { start: offset, end: offset + value.length };
      offset = span.end + 1;
      return { kind: 'text', value, literalStars: [], span };
    });
    return { type: 'member', segments, span: spanOf(token) };
  }

  private regexPattern(token: IToken): RegexPattern {
    const image = token.image;
    const quote = image[0] === '"' || image[0] === "'" ? image[0] : null;
    if (
      quote &&
      (image.length < 2 ||
        image[image.length - 1] !== quote ||
        (image.endsWith(`\\${quote}`) && !closes(image)))
    ) {
      throw ListkitError.of(
        'filter',
        'unterminated_string',
        'unterminated string',
        spanOf(token),
        this.source,
      );
    }
    return { value: quote ? image.slice(1, -1) : image, quote, span: spanOf(token) };
  }
}

/** A factor's node: its one term, or an OR of its terms. */
function orOf(operands: ExpressionNode[]): ExpressionNode {
  return operands.length === 1
    ? operands[0]!
    : { type: 'or', operands, span: join(operands[0]!, operands[operands.length - 1]!) };
}

/** Whether a quoted regex literal's last quote really closes it (it is not escaped). */
function closes(image: string): boolean {
  let backslashes = 0;
  for (let i = image.length - 2; i > 0 && image[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 0;
}

let parser: FilterParser | undefined;

/**
 * The grammar's definition errors under Chevrotain's validations, which the parser in use skips:
 * the test of the grammar expects none. Internal (not exported from the package).
 *
 * @example
 * ```ts
 * expect(filterGrammarErrors()).toEqual([]);
 * ```
 */
export function filterGrammarErrors(): string[] {
  try {
    new FilterParser(true);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/**
 * Options of {@link parseFilter}.
 *
 * @example
 * ```ts
 * parseFilter(text, { limits: { maxDepth: 8 } });
 * ```
 */
export interface ParseOptions {
  /** Override some or all of the {@link DEFAULT_FILTER_LIMITS}. */
  limits?: Partial<FilterLimits>;
}

/**
 * Parses a filter in either language into its tree. The language is detected from the shape of
 * the filter; an empty or all-space filter gives `{ style: 'empty' }`. Throws a
 * {@link ListkitError} for any invalid input, and never any other exception.
 *
 * @example
 * ```ts
 * parseFilter('labels.env = "prod" AND NOT name:web-*').style; // 'aip-160'
 * parseFilter('(name eq "fr-.*")(region ne ".*west.*")').style; // 'regex'
 * ```
 */
export function parseFilter(source: string, options: ParseOptions = {}): FilterAst {
  const limits = options.limits ? resolveLimits(options.limits) : DEFAULT_FILTER_LIMITS;
  if (typeof source !== 'string') {
    throw ListkitError.of(
      'filter',
      'invalid_value',
      'the filter must be a string',
      { start: 0, end: 0 },
      '',
    );
  }
  if (source.length > limits.maxLength) {
    throw ListkitError.of(
      'filter',
      'too_long',
      `the filter is ${source.length} characters long; the limit is ${limits.maxLength}`,
      { start: limits.maxLength, end: source.length },
      source,
    );
  }
  const style = detectFilterStyle(source);
  if (style === 'empty') return { style, source };
  const lexed = filterLexer.tokenize(source, style === 'regex' ? 'regex' : 'aip');
  const lexError = lexed.errors[0];
  if (lexError) {
    const span = { start: lexError.offset, end: lexError.offset + Math.max(1, lexError.length) };
    const char = String.fromCodePoint(source.codePointAt(lexError.offset) ?? 0);
    throw ListkitError.of(
      'filter',
      'unexpected_character',
      `unexpected character '${char}'`,
      span,
      source,
    );
  }
  parser ??= new FilterParser();
  parser.begin(source, lexed.tokens, limits);
  try {
    if (style === 'aip-160') {
      const expression = parser.aipFilter();
      throwFirst(parser.errors, source, style, lexed.tokens);
      return { style, source, expression };
    }
    const terms = parser.regexFilter();
    throwFirst(parser.errors, source, style, lexed.tokens);
    return { style, source, terms };
  } catch (error) {
    // A safety net only: the depth limit keeps recursion far below the stack's size, but a
    // caller may already be deep in its own stack.
    if (error instanceof RangeError) {
      throw ListkitError.of(
        'filter',
        'too_deep',
        'the filter nests too deeply',
        { start: 0, end: source.length },
        source,
      );
    }
    throw error;
  } finally {
    // A large token array is released at once; a small one stays until the next parse resets
    // the parser (a second reset per parse cost as much as lexing a short filter).
    if (lexed.tokens.length > RETAINED_TOKENS) parser.input = [];
  }
}

/** The most tokens the parser may keep referring to between parses. */
const RETAINED_TOKENS = 64;

function resolveLimits(overrides: Partial<FilterLimits>): FilterLimits {
  const limits = { ...DEFAULT_FILTER_LIMITS, ...overrides };
  limits.maxDepth = Math.min(limits.maxDepth, MAX_FILTER_DEPTH);
  return limits;
}

function throwFirst(
  errors: IRecognitionException[],
  source: string,
  style: 'aip-160' | 'regex',
  tokens: IToken[],
) {
  const error = errors[0];
  if (!error) return;
  const token = error.token;
  const atEnd = token.tokenType === EOF || Number.isNaN(token.startOffset);
  const offset = atEnd ? source.length : token.startOffset;
  // `NOT(a = 1)` is a call of a function named NOT whose argument cannot hold a comparison.
  const keywordCall = tokens.find((t) => t.tokenType === KeywordName && t.startOffset < offset);
  const hint = keywordCall
    ? `; '${keywordCall.image}(' starts a call of a function named ${keywordCall.image}: ${keywordCall.image} is an operator only when followed by whitespace, as in '${keywordCall.image} (…)'`
    : '';
  if (atEnd) {
    const end = source.trimEnd().length;
    throw ListkitError.of(
      'filter',
      'unexpected_end',
      error.message + hint,
      { start: end, end },
      source,
    );
  }
  const span = spanOf(token);
  if (style === 'regex') {
    if (token.tokenType === RegexAipComparator || token.tokenType === RegexAipKeyword) {
      // Point at the whole offending term when the comparator follows a field name.
      const previous = (error as { previousToken?: IToken }).previousToken;
      if (token.tokenType === RegexAipComparator && previous?.tokenType === RegexField) {
        span.start = previous.startOffset;
      }
      throw ListkitError.of(
        'filter',
        'mixed_filter_styles',
        `${MIXED_MESSAGE}: ${describe(token)} is AIP-160 syntax; regex-style terms use eq or ne and are ANDed by writing them side by side in parentheses`,
        span,
        source,
      );
    }
    if (token.tokenType === RegexLParen && error.name === 'NotAllInputParsedException') {
      throw ListkitError.of(
        'filter',
        'unexpected_token',
        'a regex-style filter with several terms must put every term in parentheses, such as (a eq x) (b ne y)',
        span,
        source,
      );
    }
  }
  throw ListkitError.of('filter', 'unexpected_token', error.message + hint, span, source);
}
