import type { FieldType } from '../schema/field-type.js';
import type { SqlStatement } from './sql-statement.js';

// The seam between the planner and a database's SQL, after Kysely's dialect split: this file is
// the interface, and each database has a folder under dialects/ with the same file names
// (capabilities.ts: what the engine can decide, as flags; dialect.ts: how it is written).

/**
 * The SQL dialects `sqlTable` lays tables out for: `'postgres'` (PostgreSQL and PGlite, the
 * default), `'sqlite'` (SQLite 3.38+, which has `->`, `->>` and `json_each`), `'mysql'`
 * (MySQL 8.0.17+ and MariaDB 10.11+, which have JSON_TABLE) and `'spanner'` (Cloud Spanner's
 * GoogleSQL).
 *
 * @example
 * ```ts
 * const dialect: SqlDialectName = 'sqlite';
 * sqlTable(schema, { table: 'rules', dialect });
 * ```
 */
export type SqlDialectName = 'postgres' | 'sqlite' | 'mysql' | 'spanner';

/**
 * The type a parameter is compared as, in PostgreSQL's words (`nanos`: a timestamp or duration
 * as nanoseconds; `jsonkey`: a map key looked up in a JSON object). Each dialect writes its own
 * placeholder and, where its storage differs, its own value for each.
 *
 * @example
 * ```ts
 * const type: SqlParamType = 'nanos';
 * sqlDialect('sqlite').paramValue('0', type); // '1000000000000000000000'
 * ```
 */
export type SqlParamType =
  | 'text'
  | 'bigint'
  | 'integer'
  | 'numeric'
  | 'float8'
  | 'boolean'
  | 'nanos'
  | 'jsonb'
  | 'jsonkey'
  | 'unknown'
  | 'timestamptz'
  | 'timestamp'
  | 'text[]'
  | 'integer[]';

/**
 * What an engine can decide exactly, apart from how it is written: the planner reads these to
 * choose between pushing a filter down and leaving it to the residual.
 *
 * @example
 * ```ts
 * if (table.dialect.capabilities.regex === 'none') console.log('regex filters run in memory');
 * ```
 */
export interface SqlDialectCapabilities {
  /** NULL orders below every value (SQLite), as in memory: orderings need no NULLS clause. */
  readonly nullsSortLow: boolean;
  /**
   * Regex pushdown: `'subset'` when the engine's regex means what RE2 means on the portable
   * subset (PostgreSQL), `'none'` when it has no regex operator (SQLite), `'re2'` when the
   * engine's regex is RE2 itself (Spanner's `REGEXP_CONTAINS`): patterns push down whole,
   * through {@link SqlDialect.regexFullMatch}.
   */
  readonly regex: 'none' | 'subset' | 're2';
  /**
   * Where regex is `'re2'`: the largest RE2 program (instructions, as the regex engine counts
   * them) pushed down whole; larger patterns are narrowed and decided in memory.
   */
  readonly regexProgramLimit?: number;
  /** JSON containment (`@>`) and key tests (`?`) that an index answers (PostgreSQL's GIN). */
  readonly jsonContainment: boolean;
  /** A statement time limit the list statement's transaction can set. */
  readonly statementTimeout: boolean;
  /** Tables of your own (`document: false`) are supported. */
  readonly ownTables: boolean;
  /**
   * In a table of your own, the column types each field kind may have here, the first the
   * default: only types that hold and order the kind's values as the in-memory engine does
   * (a kind missing has none, and `sqlTable` refuses it in `columns`).
   */
  readonly ownColumnTypes: Readonly<Partial<Record<FieldType['kind'], readonly SqlColumnType[]>>>;
  /**
   * An index can be built on an expression (`COALESCE(x, '')`, a cast): `suggestIndexes` gives
   * one for an ordering of a table of your own that reads one. MariaDB and Spanner index
   * columns only: such orderings get no index.
   */
  readonly expressionIndexes: boolean;
  /** The document column types `sqlTable` accepts; the first is the default. */
  readonly documentTypes: readonly string[];
  /**
   * The keyset condition as a disjunction of ranges, `a > x OR (a = x AND b > y)`: the only
   * form MySQL's and MariaDB's range optimizers turn into an index seek. Otherwise the nested
   * form with a leading bound (`a >= x AND NOT (a = x AND NOT b > y)`), which PostgreSQL plans best.
   */
  readonly keysetDisjunction?: boolean;
  /**
   * What one statement may hold before the engine refuses it (Spanner: 950 parameters, 75
   * nested expressions, 1,000 function calls, 1 MiB of text). Past them the planner pushes
   * down less and the residual decides; undefined: no limit the planner can reach.
   */
  readonly limits?: SqlStatementLimits;
}

/**
 * An engine's limits on one statement, as the planner counts them (see
 * {@link SqlDialectCapabilities.limits}).
 *
 * @example
 * ```ts
 * const limits: SqlStatementLimits = { parameters: 950, nesting: 75, functions: 1000, textLength: 1 << 20 };
 * ```
 */
export interface SqlStatementLimits {
  /** Parameters (placeholders) in one statement. */
  readonly parameters: number;
  /** Expressions nested in one another (operators and function calls). */
  readonly nesting: number;
  /** Operators and function calls in one statement. */
  readonly functions: number;
  /** The statement's text, in UTF-8 bytes. */
  readonly textLength: number;
}

/**
 * One piece of a wildcard pattern: literal text, or `'any'` (any run of characters).
 *
 * @example
 * ```ts
 * sqlDialect('sqlite').patternText([{ text: 'web-' }, 'any']); // 'web-*'
 * ```
 */
export type PatternPiece = { readonly text: string } | 'any';

/**
 * How a database's SQL is written. The planner builds every statement through one of these,
 * so no PostgreSQL-only text reaches another engine.
 *
 * @example
 * ```ts
 * const table = sqlTable(schema, { table: 'rules', dialect: 'sqlite' });
 * table.dialect.quoteIdentifier('rules'); // '"rules"'
 * ```
 */
export interface SqlDialect {
  readonly name: SqlDialectName;
  readonly capabilities: SqlDialectCapabilities;
  /** An identifier from code (never from a request), quoted; dotted names quote each part. */
  quoteIdentifier(name: string): string;
  /** The placeholder of the `index`-th parameter (1-based), with what makes it compare as `type`. */
  placeholder(index: number, type: SqlParamType): string;
  /** A parameter's value (canonical text, as PostgreSQL reads it) as this engine stores it. */
  paramValue(value: string | null, type: SqlParamType): string | null;
  /** A statement written with `$n` placeholders in the engine's own form. */
  finish(statement: SqlStatement): SqlStatement;
  /** A string expression compared and ordered by code point. */
  codePoint(expr: string): string;
  /** The DDL type of a column in listkit's layout (`text COLLATE "C"`, `TEXT`, …). */
  columnType(sqlType: string): string;
  /** What follows `CREATE TABLE …(…)` (SQLite: ` STRICT, WITHOUT ROWID`). */
  readonly tableSuffix: string;
  /** The document column as JSON text in a select list. */
  documentText(document: string, documentType: string): string;
  /** The document column as a JSON value filters walk. */
  documentJson(document: string, documentType: string): string;
  /** `expr` matches the wildcard pattern (LIKE, GLOB), given as a parameter placeholder. */
  matches(expr: string, placeholder: string, negated: boolean): string;
  /** The pattern's text as the `matches` parameter. */
  patternText(pieces: readonly PatternPiece[]): string;
  /** Null-safe inequality: `a IS DISTINCT FROM b`. */
  distinctFrom(a: string, b: string): string;
  /** `expr` is one of a set of values given as one parameter of the set's text. */
  inSet(
    expr: string,
    values: readonly string[],
    type: 'text' | 'integer',
    add: AddParameter,
  ): string;
  readonly json: JsonSql;
  /** The statement to run before the list statement in its transaction, if any. */
  settings(timeoutMs: number): SqlStatement | undefined;
  /**
   * The list statement with its time limit written into it, for an engine that limits one
   * statement rather than a transaction (MySQL's hint, MariaDB's `SET STATEMENT … FOR`).
   */
  timeLimited?(statement: SqlStatement, timeoutMs: number): SqlStatement;
  /** Whether a driver's error is this engine's statement timeout (PostgreSQL: SQLSTATE 57014). */
  isTimeout?(error: unknown): boolean;
  /**
   * Where {@link SqlDialectCapabilities.regex} is `'re2'`: RE2's full match of a string
   * expression (`kind: 'int64'`: an integer, matched as its decimal text) against a pattern
   * placeholder, whose value {@link regexPattern} wrote.
   */
  regexFullMatch?(expr: string, kind: 'string' | 'int64', pattern: string): string;
  /** Where regex is `'re2'`: an RE2 pattern as the parameter `regexFullMatch` matches whole. */
  regexPattern?(pattern: string): string;
  /**
   * `CREATE TABLE` from its column lines and primary key, where the engine writes it otherwise
   * than `CREATE TABLE IF NOT EXISTS t (…, PRIMARY KEY (k))` (Spanner: the key after the list).
   */
  tableDefinition?(table: string, lines: readonly string[], key: string): string;
  /**
   * How a column of a table of your own is read: its comparable value, its sort value and the
   * text the statement selects, in this engine's SQL (see {@link OwnColumnInput}).
   */
  ownColumn(input: OwnColumnInput): OwnColumnSql;
  /**
   * The DDL type `createTable` declares for a column of your own of this type; undefined when
   * the engine needs it declared apart (a PostgreSQL enum type).
   */
  ownColumnType(type: FieldType, storage: SqlColumnType): string | undefined;
  /**
   * The placeholder of a value the documented insert writes into a column compared as `type`,
   * where the engine does not infer it from the column (Spanner, whose runner binds STRING);
   * without it the insert writes bare placeholders.
   */
  insertPlaceholder?(index: number, type: SqlParamType): string;
}

/**
 * Adds a parameter and returns its placeholder.
 *
 * @example
 * ```ts
 * const add: AddParameter = (value, type) => `$1::${type}`; // what the planner passes
 * ```
 */
export type AddParameter = (value: string | null, type: SqlParamType) => string;

/**
 * JSON values (documents, maps, lists) as each engine reads them.
 *
 * @example
 * ```ts
 * sqlDialect('sqlite').json.field('"resource"', 'sched'); // `("resource" -> '$."sched"')`
 * ```
 */
export interface JsonSql {
  /** The member `name` (a schema field name) of an object, as a JSON value; NULL if absent. */
  field(expr: string, name: string): string;
  /** {@link field} without parentheses, for the guards on the way to a nested column. */
  step(expr: string, name: string): string;
  /** The member whose key is a parameter (`jsonkey`), as a JSON value; NULL if absent. */
  member(expr: string, key: string): string;
  /** Whether an object has the key (a `jsonkey` parameter). */
  hasKey(expr: string, key: string): string;
  /** Whether a JSON value is of a type. */
  typeIs(expr: string, type: 'object' | 'array' | 'string'): string;
  /** A JSON literal (`""`, `0`, `false`) as a value of the same kind as {@link field}'s. */
  literal(json: string): string;
  /** A JSON scalar as SQL text, number or boolean. */
  text(expr: string): string;
  integer(expr: string): string;
  double(expr: string): string;
  isTrue(expr: string): string;
  /** The FROM item over an array's elements and each element as a JSON value. */
  elements(array: string, alias: string): { from: string; element: string };
  /**
   * Whether a JSON value is none of the JSON literals, where the engine cannot compare JSON
   * values with `NOT IN` (Spanner); NULL when the value is.
   */
  notAmong?(expr: string, jsons: readonly string[]): string;
}

/**
 * One column of a table of your own, as {@link SqlDialect.ownColumn} reads it.
 *
 * @example
 * ```ts
 * const input: OwnColumnInput = {
 *   type: t.string(), storage: 'text', table: '"books"', column: '"title"', nullable: true,
 *   note: (reason) => console.log(reason),
 * };
 * sqlDialect('sqlite').ownColumn(input).value; // `COALESCE("books"."title", '') COLLATE BINARY`
 * ```
 */
export interface OwnColumnInput {
  /** The field's type. */
  readonly type: FieldType;
  /** The column's type, one of the dialect's {@link SqlDialectCapabilities.ownColumnTypes}. */
  readonly storage: SqlColumnType;
  /** The quoted table. */
  readonly table: string;
  /** The quoted column. */
  readonly column: string;
  /** Whether the column may be NULL (unset). */
  readonly nullable: boolean;
  /** Records where the column's SQL semantics differ from the engine's (`table.inexact`). */
  readonly note: (reason: string) => void;
}

/**
 * How a column of a table of your own is read (see {@link SqlDialect.ownColumn}).
 *
 * @example
 * ```ts
 * const { value, select } = sqlDialect('mysql').ownColumn(input);
 * ```
 */
export interface OwnColumnSql {
  /** The field's value as filters compare it. */
  readonly value: string;
  /** The expression ORDER BY and the keyset condition use. */
  readonly sortValue: string;
  /** Whether {@link sortValue} can be NULL. */
  readonly sortNullable: boolean;
  /** What the statement selects under the column's name. */
  readonly select: string;
  /**
   * The selected value as the field's JSON form, where the column holds another (nanoseconds,
   * Spanner's `inf`); `path` names the field in errors. Without it the value is read as it is.
   */
  readonly decode?: (raw: unknown, path: string) => unknown;
}

/**
 * The type of a column in a table of your own, by dialect (the first of each kind is its
 * default; docs/sql.md, "Your own table", has the table):
 *
 * - PostgreSQL: `text`/`varchar` (strings, enums), `bigint`/`integer`/`numeric` (int64),
 *   `double precision`/`numeric` (double), `boolean`, `timestamptz`/`timestamp` (timestamps,
 *   UTC), `enum` (a PostgreSQL enum type, for enum fields), `jsonb` (maps and repeated fields);
 * - SQLite: `text` (strings, enums, maps and lists as JSON, timestamps and durations as 22-digit
 *   nanosecond text), `integer` (int64, bools 0/1), `real` (double);
 * - MySQL/MariaDB: `varbinary`/`varchar` (strings, enums), `enum` (a MySQL ENUM), `bigint`/
 *   `integer` (int64), `double`, `boolean`, `decimal` (timestamps and durations as DECIMAL(21,0)
 *   nanoseconds), `json` (maps and lists);
 * - Spanner: `string`, `int64`, `float64`, `bool`, `numeric` (timestamps and durations as
 *   nanoseconds), `json`.
 *
 * @example
 * ```ts
 * const type: SqlColumnType = 'timestamptz';
 * sqlTable(schema, { table: 'books', document: false, columns: { published: { type } } });
 * ```
 */
export type SqlColumnType =
  | 'text'
  | 'varchar'
  | 'bigint'
  | 'integer'
  | 'numeric'
  | 'double precision'
  | 'boolean'
  | 'timestamptz'
  | 'timestamp'
  | 'enum'
  | 'jsonb'
  | 'real'
  | 'varbinary'
  | 'double'
  | 'decimal'
  | 'json'
  | 'string'
  | 'int64'
  | 'float64'
  | 'bool';
