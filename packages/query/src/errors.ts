/**
 * A half-open range `[start, end)` of UTF-16 offsets into the source text.
 *
 * @example
 * ```ts
 * const { start, end } = error.span; // error: ListkitError
 * filter.slice(start, end); // the text the problem is about
 * ```
 */
export interface Span {
  start: number;
  end: number;
}

/**
 * Every stable error code of `@listkit/query`. Codes never change meaning; messages may improve.
 * `docs/filter-language.md` lists each with an example.
 *
 * @example
 * ```ts
 * if (error.code === 'unknown_field') showFieldList();
 * const retryable: ListkitErrorCode[] = ['query_timeout'];
 * ```
 */
export type ListkitErrorCode =
  // lexing and parsing
  | 'unexpected_character'
  | 'unterminated_string'
  | 'invalid_escape'
  | 'unexpected_token'
  | 'unexpected_end'
  | 'missing_whitespace'
  | 'mixed_filter_styles'
  | 'invalid_regex'
  | 'too_long'
  | 'too_deep'
  | 'too_many_terms'
  | 'regex_too_large'
  // checking against a schema
  | 'unknown_field'
  | 'invalid_value'
  | 'unknown_enum_value'
  | 'invalid_timestamp'
  | 'invalid_duration'
  | 'unsupported_operator'
  | 'traversal_through_repeated'
  | 'unknown_function'
  | 'wrong_arity'
  | 'no_text_fields'
  | 'field_required'
  | 'unsupported_argument'
  // orderBy and paging
  | 'invalid_order_by'
  | 'unsortable_field'
  | 'duplicate_order_by_field'
  | 'unsupported_order_by'
  | 'invalid_page_size'
  | 'malformed_page_token'
  | 'tampered_page_token'
  | 'page_token_query_mismatch'
  | 'expired_page_token'
  | 'invalid_parent'
  // resources checked against the schema (Collection.put, SqlTable.readRow, checkResource)
  | 'invalid_resource_value'
  // partial responses and skipping
  | 'invalid_field_mask'
  | 'invalid_skip'
  // storage
  | 'query_timeout';

/**
 * The input of a list call a problem concerns, set where the problem is raised (as Valibot
 * issues carry a path): the filter parser and checker say `filter`, the orderBy parser
 * `orderBy`, the page-token codec `pageToken`, page-size checks `pageSize`, the parent check
 * `parent`, the field-mask reader `fields` (a partial response's selection; the list method says
 * `readMask` for a read mask) and skip checks `skip`; a resource checked against the schema says
 * `resource` (its error's `source` is the field path). An API maps each to its own parameter
 * (Compute Engine's `pageSize` is `maxResults`).
 *
 * @example
 * ```ts
 * try {
 *   parseOrderBy('nmae', schema);
 * } catch (e) {
 *   if (e instanceof ListkitError) e.input; // 'orderBy'
 * }
 * ```
 */
export type ListInput =
  | 'filter'
  | 'orderBy'
  | 'pageToken'
  | 'pageSize'
  | 'parent'
  | 'resource'
  | 'fields'
  | 'readMask'
  | 'skip';

/**
 * A problem found in a filter, an orderBy, a page token or a page size, as plain data.
 *
 * @example
 * ```ts
 * const result = checkFilter(parseFilter('nmae = x'), schema);
 * if (!result.ok) for (const p of result.problems) console.log(p.input, p.code, p.line, p.column);
 * // filter unknown_field 1 1
 * ```
 */
export interface Problem {
  /** Which input of the list call the problem is in; {@link span} points into that input. */
  input: ListInput;
  code: ListkitErrorCode;
  message: string;
  span: Span;
  /** 1-based line of `span.start`. */
  line: number;
  /** 1-based column of `span.start`, counted in code points. */
  column: number;
}

/** Computes 1-based line and code-point column of an offset. */
export function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < end; i++) {
    const code = source.charCodeAt(i);
    // A surrogate pair is one code point: count only its high half.
    if (code < 0xdc00 || code > 0xdfff) column++;
  }
  return { line, column };
}

/** Builds a {@link Problem} with its line and column computed from the source. */
export function problem(
  input: ListInput,
  code: ListkitErrorCode,
  message: string,
  span: Span,
  source: string,
): Problem {
  return { input, code, message, span, ...positionOf(source, span.start) };
}

/**
 * The one error type of `@listkit/query`: a stable machine `code`, a human message, and where.
 *
 * @example
 * ```ts
 * try {
 *   parseFilter('name = "unterminated');
 * } catch (e) {
 *   if (e instanceof ListkitError) console.log(e.code, e.format());
 *   // unterminated_string
 *   // name = "unterminated
 *   //        ^~~~~~~~~~~~~ unterminated string (1:8)
 * }
 * ```
 */
export class ListkitError extends Error implements Problem {
  override readonly name = 'ListkitError';
  /** Which input of the list call the (first) problem is in. */
  readonly input: ListInput;
  readonly code: ListkitErrorCode;
  readonly span: Span;
  readonly line: number;
  readonly column: number;
  /** The text the span points into (the filter, orderBy, page token or page size). */
  readonly source: string;
  /** Every problem found; the error's own fields describe the first. */
  readonly problems: readonly Problem[];

  constructor(problems: readonly [Problem, ...Problem[]], source: string) {
    const first = problems[0];
    super(first.message);
    this.input = first.input;
    this.code = first.code;
    this.span = first.span;
    this.line = first.line;
    this.column = first.column;
    this.source = source;
    this.problems = problems;
  }

  /** Creates an error from one problem in `input`. */
  static of(
    input: ListInput,
    code: ListkitErrorCode,
    message: string,
    span: Span,
    source: string,
  ): ListkitError {
    return new ListkitError([problem(input, code, message, span, source)], source);
  }

  /**
   * The source line with a caret under the problem and the message, for terminals and logs.
   * Long sources are cut around the problem so the caret stays readable.
   */
  format(): string {
    return this.problems.map((p) => formatProblem(this.source, p)).join('\n');
  }
}

const CONTEXT = 60;

/**
 * Draws `source` with a caret line under `p.span` and the message after it.
 *
 * @example
 * ```ts
 * const result = checkFilter(parseFilter('nmae = x'), schema);
 * if (!result.ok) console.log(formatProblem('nmae = x', result.problems[0]));
 * // nmae = x
 * // ^~~~ unknown field 'nmae'; did you mean 'name'? (1:1)
 * ```
 */
export function formatProblem(source: string, p: Problem): string {
  const lines = source.split('\n');
  const text = lines[p.line - 1] ?? '';
  const lineStart = lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0);
  const from = Math.max(0, p.span.start - lineStart);
  const to = Math.max(from + 1, Math.min(text.length, p.span.end - lineStart));
  const cutStart = Math.max(0, from - CONTEXT);
  const cutEnd = Math.min(text.length, Math.max(to, from + 1) + CONTEXT);
  const prefix = cutStart > 0 ? '…' : '';
  const suffix = cutEnd < text.length ? '…' : '';
  const shown = prefix + text.slice(cutStart, cutEnd) + suffix;
  const pad = ' '.repeat(prefix.length + [...text.slice(cutStart, from)].length);
  const width = Math.max(1, [...text.slice(from, Math.min(to, cutEnd))].length);
  const marks = `^${'~'.repeat(width - 1)}`;
  return `${shown}\n${pad}${marks} ${p.message} (${p.line}:${p.column})`;
}
