import { invalid } from '../../../schema/check-resource.js';
import type { FieldType } from '../../../schema/field-type.js';
import type { OwnColumnInput, OwnColumnSql, SqlColumnType } from '../../dialect.js';
import { type OwnColumnPieces, ownColumnSql } from '../../own-column-sql.js';
import { spannerString } from './literals.js';

// Columns of a table of your own in Cloud Spanner: what each field kind may be stored as, exactly.

/**
 * Spanner's column types for each field kind. STRING compares by code point; timestamps and
 * durations only as `NUMERIC` nanoseconds, as in listkit's layout (decision 0062).
 */
export const spannerOwnColumnTypes: Readonly<
  Partial<Record<FieldType['kind'], readonly SqlColumnType[]>>
> = {
  string: ['string'],
  int64: ['int64'],
  double: ['float64'],
  bool: ['bool'],
  enum: ['string'],
  timestamp: ['numeric'],
  duration: ['numeric'],
  map: ['json'],
  repeated: ['json'],
};

/** GoogleSQL's text of the doubles JSON has no number for. */
const SPECIAL: Readonly<Record<string, number>> = { inf: Infinity, '-inf': -Infinity, nan: NaN };

const pieces: OwnColumnPieces = {
  decimalText: (ref) => `CAST(${ref} AS STRING)`,
  codePoint: (expr) => expr,
  stringSelect: (ref) => ref,
  literal: spannerString,
  falseValue: 'false',
  // As text: the client's JSON rows turn an infinite FLOAT64 into null.
  doubleSelect: (ref) => ({
    select: `CAST(${ref} AS STRING)`,
    decode: (raw, path) => {
      if (typeof raw !== 'string') return raw;
      if (Object.hasOwn(SPECIAL, raw)) return SPECIAL[raw];
      const n = Number(raw);
      return raw.trim() === '' || Number.isNaN(n) ? invalid(path, raw, 'a double') : n;
    },
  }),
  nanosBias: 0n,
};

/** How Spanner reads a column of your own. */
export const spannerOwnColumn = (input: OwnColumnInput): OwnColumnSql =>
  ownColumnSql(pieces, input);

const DDL: Readonly<Partial<Record<SqlColumnType, string>>> = {
  string: 'STRING(MAX)',
  int64: 'INT64',
  float64: 'FLOAT64',
  bool: 'BOOL',
  numeric: 'NUMERIC',
  json: 'JSON',
};

/** The DDL of a Spanner column of your own. */
export function spannerOwnColumnType(_type: FieldType, storage: SqlColumnType): string | undefined {
  return DDL[storage];
}
