import type { FieldType } from '../../../schema/field-type.js';
import type { OwnColumnInput, OwnColumnSql, SqlColumnType } from '../../dialect.js';
import { type OwnColumnPieces, ownColumnSql } from '../../own-column-sql.js';
import { MYSQL_TEXT_BYTES, mysqlLiteral } from './literals.js';

// Columns of a table of your own in MySQL and MariaDB: what each field kind may be stored as,
// exactly, in one SQL text for both engines.

/**
 * MySQL's and MariaDB's column types for each field kind. Strings `VARBINARY` (bytes: code
 * points, no padding; read as is) or `VARCHAR`/`TEXT` of any collation (compared as UTF-8 bytes
 * through a cast, which no index serves); timestamps and durations only as `DECIMAL(21,0)`
 * nanoseconds (DATETIME(6) keeps microseconds from year 1000, TIMESTAMP ends in 2038, BIGINT
 * nanoseconds in 2262); maps and lists JSON (MySQL's `JSON` or JSON text).
 */
export const mysqlOwnColumnTypes: Readonly<
  Partial<Record<FieldType['kind'], readonly SqlColumnType[]>>
> = {
  string: ['varbinary', 'varchar'],
  int64: ['bigint', 'integer'],
  double: ['double'],
  bool: ['boolean'],
  enum: ['varbinary', 'varchar', 'enum'],
  timestamp: ['decimal'],
  duration: ['decimal'],
  map: ['json'],
  repeated: ['json'],
};

/** UTF-8 bytes of a text column, whatever its character set and collation (PAD SPACE included). */
const bytes = (expr: string) => `CAST(CONVERT(${expr} USING utf8mb4) AS BINARY)`;

const pieces: OwnColumnPieces = {
  decimalText: (ref) => `CAST(${ref} AS CHAR)`,
  codePoint: (expr, storage) => (storage === 'varbinary' ? expr : bytes(expr)),
  // VARBINARY reaches a driver as bytes: selected as UTF-8 text.
  stringSelect: (ref) => `CONVERT(${ref} USING utf8mb4)`,
  stringNote: (storage) =>
    storage === 'varchar'
      ? "compared and ordered as UTF-8 bytes (code points, no padding), whatever the column's collation: no index serves it (VARBINARY is read as it is)"
      : undefined,
  literal: mysqlLiteral,
  falseValue: '0',
  // 0 and 1 as the engine's text; anything else as it is, which readRow refuses.
  boolSelect: (ref) => `CASE ${ref} WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE ${ref} END`,
  // As text: MariaDB's text protocol (what query builders send) writes some doubles short of
  // round-trip (9.987849445826793 read as …791); CAST(… AS CHAR) is exact on either protocol.
  doubleSelect: (ref) => ({ select: `CAST(${ref} AS CHAR)` }),
  nanosBias: 0n,
};

/** How MySQL and MariaDB read a column of your own. */
export const mysqlOwnColumn = (input: OwnColumnInput): OwnColumnSql => ownColumnSql(pieces, input);

const DDL: Readonly<Partial<Record<SqlColumnType, string>>> = {
  varbinary: `VARBINARY(${MYSQL_TEXT_BYTES})`,
  varchar: `VARCHAR(${MYSQL_TEXT_BYTES / 4}) CHARACTER SET utf8mb4`,
  bigint: 'BIGINT',
  integer: 'INT',
  double: 'DOUBLE',
  boolean: 'BOOLEAN',
  decimal: 'DECIMAL(21,0)',
  json: 'LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin',
};

/** The DDL of a MySQL column of your own (an enum field's ENUM lists the schema's values). */
export function mysqlOwnColumnType(type: FieldType, storage: SqlColumnType): string | undefined {
  if (storage === 'enum' && type.kind === 'enum') {
    return `ENUM(${type.values.map(mysqlLiteral).join(', ')}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`;
  }
  return DDL[storage];
}
