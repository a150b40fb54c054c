import type { SqlDialect, SqlParamType } from './dialect.js';

/**
 * Quotes an identifier that comes from a schema or a table declaration (never from a request):
 * `"name"`, with inner quotes doubled. A dotted name (`app.rules`) quotes each part.
 */
export function quoteIdentifier(name: string): string {
  return name
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');
}

/**
 * Quotes a string constant that comes from a schema (field names in JSON paths), never from a
 * request: request text only ever travels as a parameter.
 */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The parameters of one statement, numbered `$1`, `$2`, … in the order they are added; each
 * placeholder is written by the dialect (PostgreSQL: `$3::bigint`), which
 * {@link SqlDialect.finish} turns into the engine's own form.
 */
export class Parameters {
  readonly values: (string | null)[] = [];
  constructor(private readonly dialect: Pick<SqlDialect, 'placeholder' | 'paramValue'>) {}

  /** Adds a value and returns its placeholder, which makes it compare as `type`. */
  add(value: string | null, type: SqlParamType): string {
    this.values.push(this.dialect.paramValue(value, type));
    return this.dialect.placeholder(this.values.length, type);
  }
}

// PostgreSQL text cannot hold U+0000, and a lone surrogate has no UTF-8 form: such a string
// can never equal stored text, and a driver would reject or rewrite it as a parameter.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether PostgreSQL can store this text exactly. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** Escapes `\`, `%` and `_` so that text stands for itself inside a `LIKE … ESCAPE '\'` pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A value as a PostgreSQL escape-string constant, `E'…'`, whatever `standard_conforming_strings`
 * says: inside `E'…'` only `\` and `'` are special, and both are doubled. NULL stays `NULL`.
 * U+0000 is refused: PostgreSQL text cannot hold it, and the simple-query message that carries
 * the text ends at the first zero byte, so it would cut the statement short.
 */
export function escapeStringConstant(value: string | null): string {
  if (value === null) return 'NULL';
  if (value.includes('\u0000')) throw new RangeError('PostgreSQL text cannot hold U+0000');
  return `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * The statement's text with each `$n` placeholder replaced by its value as an escaped string
 * constant ({@link escapeStringConstant}); the cast the planner writes after each placeholder
 * (`$3::bigint`) stays and applies to the constant. Placeholders are only recognised outside
 * quoted identifiers and string constants, which the planner's own text may hold (JSON paths).
 */
export function inlineParameters(text: string, params: readonly (string | null)[]): string {
  return replacePlaceholders(text, (index, written) => {
    if (index < 0 || index >= params.length) {
      throw new RangeError(`placeholder ${written} has no parameter`);
    }
    return escapeStringConstant(params[index]!);
  });
}

/**
 * The text with each `$n` placeholder outside quoted identifiers and string constants replaced
 * by `replace(n - 1, '$n')`, in order: how `$n` becomes a literal, `?` or `@pn`.
 */
export function replacePlaceholders(
  text: string,
  replace: (index: number, written: string) => string,
): string {
  let out = '';
  let at = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text[i];
    // MySQL quotes identifiers with backticks.
    if (c === "'" || c === '"' || c === '`') {
      // A quoted span ends at the next lone quote of the same kind (a doubled one is inside).
      let j = i + 1;
      for (; j < n; j++) {
        if (text[j] !== c) continue;
        if (text[j + 1] === c) j++;
        else break;
      }
      i = j + 1;
      continue;
    }
    if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (j < n && /[0-9]/.test(text[j]!)) j++;
      out += text.slice(at, i) + replace(Number(text.slice(i + 1, j)) - 1, text.slice(i, j));
      at = i = j;
      continue;
    }
    i++;
  }
  return out + text.slice(at);
}
