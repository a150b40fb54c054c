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

/** The parameters of one statement, numbered `$1`, `$2`, … in the order they are added. */
export class Parameters {
  readonly values: (string | null)[] = [];

  /** Adds a value and returns its placeholder with an explicit cast, such as `$3::bigint`. */
  add(value: string | null, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
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
