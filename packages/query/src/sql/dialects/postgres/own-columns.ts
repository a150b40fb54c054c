import type { FieldType } from '../../../schema/field-type.js';
import type { OwnColumnInput, OwnColumnSql, SqlColumnType } from '../../dialect.js';
import { quoteLiteral } from '../../sql-text.js';

// Columns of a table of your own in PostgreSQL: the types each field kind may have, and how the
// plan reads each (unqualified names: PostgreSQL resolves them to the table's columns in WHERE
// and in ORDER BY expressions).

/** The PostgreSQL types a table of your own may use for each field kind; the first is the default. */
export const postgresOwnColumnTypes: Readonly<
  Partial<Record<FieldType['kind'], readonly SqlColumnType[]>>
> = {
  string: ['text', 'varchar'],
  int64: ['bigint', 'integer', 'numeric'],
  double: ['double precision', 'numeric'],
  bool: ['boolean'],
  enum: ['text', 'varchar', 'enum'],
  timestamp: ['timestamptz', 'timestamp'],
  map: ['jsonb'],
  repeated: ['jsonb'],
};

/** Timestamps as the engine reads them: RFC 3339 in UTC with six fractional digits. */
const TIMESTAMP_TEXT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * How the engine reads an own column of this kind: its comparable value, its sort value (and
 * whether that can be null), and the text it selects; `note` records where SQL's semantics
 * differ from the engine's.
 */
export function postgresOwnColumn({
  type,
  storage: sqlType,
  column: quoted,
  nullable,
  note,
}: OwnColumnInput): OwnColumnSql {
  const or = (fallback: string, expr = quoted) =>
    nullable ? `COALESCE(${expr}, ${fallback})` : expr;
  let value: string;
  let sortValue: string;
  let sortNullable = false;
  let select = `${quoted}::text`;
  switch (type.kind) {
    case 'string':
      value = `${or(`''`)} COLLATE "C"`;
      sortValue = value;
      select = quoted;
      note(
        'compared and ordered under COLLATE "C" (code points), whatever the column\'s collation: only an index built COLLATE "C" serves it',
      );
      break;
    case 'int64':
      value = or('0');
      sortValue = value;
      break;
    case 'double':
      value = sqlType === 'numeric' ? or('0', `${quoted}::float8`) : or('0');
      sortValue = value;
      select = sqlType === 'numeric' ? `${quoted}::float8::text` : select;
      if (sqlType === 'numeric') {
        note('numeric: compared and ordered as float8, the double the resource holds');
      }
      break;
    case 'bool':
      value = or('false');
      sortValue = value;
      break;
    case 'enum': {
      value = `${quoted}::text COLLATE "C"`;
      const cases = type.values.map((v, i) => `WHEN ${quoteLiteral(v)} THEN ${i}`).join(' ');
      sortValue = `(CASE ${quoted}::text ${cases} END)`;
      sortNullable = true;
      note(
        `${sqlType === 'enum' ? 'a PostgreSQL enum orders by its own declared order' : 'text orders alphabetically'}: ordered by the schema's declared order through a CASE, which no plain index serves`,
      );
      break;
    }
    case 'timestamp':
      value = quoted;
      sortValue = quoted;
      sortNullable = nullable;
      select = `to_char(${sqlType === 'timestamptz' ? `${quoted} AT TIME ZONE 'UTC'` : quoted}, ${TIMESTAMP_TEXT})`;
      note(
        `${sqlType} keeps microseconds, the engine nanoseconds: rows read back hold microseconds, a filter literal with nanoseconds is compared through its exact microsecond bound, and a page token whose cursor holds nanoseconds is refused`,
      );
      break;
    default:
      value = quoted;
      sortValue = quoted;
      sortNullable = nullable;
  }
  return { value, sortValue, sortNullable, select };
}

/** The DDL of a PostgreSQL column of your own; an enum type is declared apart (its name is yours). */
export function postgresOwnColumnType(
  _type: FieldType,
  storage: SqlColumnType,
): string | undefined {
  if (storage === 'enum') return undefined;
  return storage === 'text' ? 'text COLLATE "C"' : storage;
}
