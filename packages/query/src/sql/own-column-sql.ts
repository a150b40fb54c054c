import type { OwnColumnInput, OwnColumnSql, SqlColumnType } from './dialect.js';
import { readNanos } from './nanos-values.js';

// Columns of a table of your own on the engines whose timestamps and durations are nanosecond
// counts (SQLite, MySQL/MariaDB, Spanner): one reading, each dialect giving its own pieces.

/**
 * What differs between those engines in reading a column of your own.
 *
 * @example
 * ```ts
 * ownColumnSql(sqliteOwnColumnPieces, input);
 * ```
 */
export interface OwnColumnPieces {
  /** A number column as exact decimal text (`CAST(x AS TEXT)`). */
  decimalText(ref: string): string;
  /** A string column (its value, or `COALESCE(x, '')`) compared and ordered by code point. */
  codePoint(expr: string, storage: SqlColumnType): string;
  /** What the statement selects of a string column: text, whatever the column holds. */
  stringSelect(ref: string, storage: SqlColumnType): string;
  /** Why a string column of this type is compared otherwise than it is declared, if it is. */
  stringNote?(storage: SqlColumnType): string | undefined;
  /** A constant from the schema (an enum's label). */
  literal(text: string): string;
  /** The SQL of false (bools as 0/1 or BOOL). */
  readonly falseValue: string;
  /** What the statement selects of a bool column (default: the column). */
  boolSelect?(ref: string): string;
  /** What the statement selects of a double column and how it is read back (default: as is). */
  doubleSelect?(ref: string): { select: string; decode?: OwnColumnSql['decode'] };
  /** What a stored nanosecond count is above the count itself (SQLite: 10^21). */
  readonly nanosBias: bigint;
}

/**
 * How an engine whose timestamps are nanosecond counts reads a column of your own. Every name
 * is qualified with its table: Spanner resolves a name inside an ORDER BY expression to the
 * select list's column of that name first, which here is the column as text.
 */
export function ownColumnSql(pieces: OwnColumnPieces, input: OwnColumnInput): OwnColumnSql {
  const { type, storage, nullable, note } = input;
  const ref = `${input.table}.${input.column}`;
  const or = (fallback: string) => (nullable ? `COALESCE(${ref}, ${fallback})` : ref);
  const plain = (value: string, select = ref): OwnColumnSql => ({
    value,
    sortValue: value,
    sortNullable: false,
    select,
  });
  switch (type.kind) {
    case 'string': {
      const reason = pieces.stringNote?.(storage);
      if (reason) note(reason);
      return plain(pieces.codePoint(or(`''`), storage), pieces.stringSelect(ref, storage));
    }
    case 'int64':
      return plain(or('0'), pieces.decimalText(ref));
    case 'double': {
      const { select, decode } = pieces.doubleSelect?.(ref) ?? { select: ref };
      return { ...plain(or('0'), select), ...(decode ? { decode } : {}) };
    }
    case 'bool':
      return plain(or(pieces.falseValue), pieces.boolSelect?.(ref) ?? ref);
    case 'enum': {
      const value = pieces.codePoint(ref, storage);
      const cases = type.values.map((v, i) => `WHEN ${pieces.literal(v)} THEN ${i}`).join(' ');
      note(
        `${storage === 'enum' ? 'an ENUM orders by its own declared order' : 'text orders by code point'}: ordered by the schema's declared order through a CASE, which no plain index serves`,
      );
      return {
        value,
        sortValue: `(CASE ${value} ${cases} END)`,
        sortNullable: true,
        select: pieces.stringSelect(ref, storage),
      };
    }
    case 'timestamp':
    case 'duration': {
      const kind = type.kind;
      return {
        value: ref,
        sortValue: ref,
        sortNullable: nullable,
        select: pieces.decimalText(ref),
        decode: (raw, path) => readNanos(raw, kind, pieces.nanosBias, path),
      };
    }
    default:
      return { value: ref, sortValue: ref, sortNullable: nullable, select: ref };
  }
}
