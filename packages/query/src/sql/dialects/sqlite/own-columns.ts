import type { FieldType } from '../../../schema/field-type.js';
import type { OwnColumnInput, OwnColumnSql, SqlColumnType } from '../../dialect.js';
import { type OwnColumnPieces, ownColumnSql } from '../../own-column-sql.js';
import { quoteLiteral } from '../../sql-text.js';

// Columns of a table of your own in SQLite: what each field kind may be stored as, exactly.

/**
 * SQLite's column types for each field kind. Timestamps and durations only as listkit's
 * 22-digit nanosecond text (INTEGER nanoseconds end in 2262, REAL keeps 53 bits, ISO text has
 * no fixed width); int64 `INTEGER` (64 bits), doubles `REAL`, bools `INTEGER` 0/1, maps and lists
 * JSON text.
 */
export const sqliteOwnColumnTypes: Readonly<
  Partial<Record<FieldType['kind'], readonly SqlColumnType[]>>
> = {
  string: ['text'],
  int64: ['integer'],
  double: ['real'],
  bool: ['integer'],
  enum: ['text'],
  timestamp: ['text'],
  duration: ['text'],
  map: ['text'],
  repeated: ['text'],
};

const pieces: OwnColumnPieces = {
  decimalText: (ref) => `CAST(${ref} AS TEXT)`,
  // BINARY compares UTF-8 bytes, which is code-point order, whatever the column declares.
  codePoint: (expr) => `${expr} COLLATE BINARY`,
  stringSelect: (ref) => ref,
  stringNote: () =>
    "compared and ordered under COLLATE BINARY (code points), whatever the column's collation: only an index with the BINARY collation serves it",
  literal: quoteLiteral,
  falseValue: '0',
  // 0 and 1 as the engine's text; anything else as it is, which readRow refuses.
  boolSelect: (ref) => `CASE ${ref} WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE ${ref} END`,
  nanosBias: 10n ** 21n,
};

/** How SQLite reads a column of your own. */
export const sqliteOwnColumn = (input: OwnColumnInput): OwnColumnSql => ownColumnSql(pieces, input);

/** The DDL of a SQLite column of your own (STRICT tables' types). */
export function sqliteOwnColumnType(_type: FieldType, storage: SqlColumnType): string {
  return storage.toUpperCase();
}
