// How a filter or an orderBy may spell a field: its JSON name (`publishTime`), its proto name
// (`publish_time`), or either. One table per fields object and spelling, built once: the checker
// and the orderBy parser resolve each path segment through it and suggest in the caller's spelling.

import type { FieldNames, Fields, FieldType } from './field-type.js';
import { suggest } from './suggest.js';

// `FieldNames` is declared beside the schema option that takes it (field-type.ts), so the two
// modules do not import each other.
export type { FieldNames } from './field-type.js';

/**
 * The proto name of a field known by its JSON name: its declared `protoName`, else the
 * snake_case of the JSON name (`publishTime` → `publish_time`), which is what protoc would have
 * derived the JSON name from.
 *
 * @example
 * ```ts
 * protoNameOf('publishTime', t.timestamp()); // 'publish_time'
 * ```
 */
export function protoNameOf(jsonName: string, type: FieldType): string {
  return (
    type.protoName ??
    jsonName.replace(/[A-Z]/g, (c, at: number) => (at === 0 ? '' : '_') + c.toLowerCase())
  );
}

/** The names one fields object accepts under one {@link FieldNames} setting. */
export interface FieldNameTable {
  /** The JSON name that `written` stands for, or undefined when no field has that name. */
  jsonName(written: string): string | undefined;
  /** The name nearest to `written` in the spelling it appears to use, if one is close. */
  suggestion(written: string): string | undefined;
}

const tables: Record<FieldNames, WeakMap<Fields, FieldNameTable>> = {
  json: new WeakMap(),
  proto: new WeakMap(),
  both: new WeakMap(),
};

/**
 * The name table of `fields` under `mode`, built once per fields object.
 *
 * @example
 * ```ts
 * fieldNameTable(schema.fields, 'both').jsonName('publish_time'); // 'publishTime'
 * ```
 */
export function fieldNameTable(fields: Fields, mode: FieldNames = 'json'): FieldNameTable {
  let table = tables[mode].get(fields);
  if (!table) {
    table = buildTable(fields, mode);
    tables[mode].set(fields, table);
  }
  return table;
}

function buildTable(fields: Fields, mode: FieldNames): FieldNameTable {
  const json = Object.keys(fields);
  if (mode === 'json') {
    return {
      jsonName: (written) => (Object.hasOwn(fields, written) ? written : undefined),
      suggestion: (written) => suggest(written, json),
    };
  }
  const toProto = new Map(json.map((name) => [name, protoNameOf(name, fields[name]!)]));
  const fromProto = new Map([...toProto].map(([name, proto]) => [proto, name]));
  const proto = [...fromProto.keys()];
  if (mode === 'proto') {
    return {
      jsonName: (written) => fromProto.get(written),
      suggestion: (written) => suggest(written, proto),
    };
  }
  return {
    // A JSON name wins over another field's identical proto name (protoc forbids the clash).
    jsonName: (written) => (Object.hasOwn(fields, written) ? written : fromProto.get(written)),
    // Candidates in the caller's apparent spelling first: on a tie, the first one wins.
    suggestion: (written) =>
      suggest(written, written.includes('_') ? [...proto, ...json] : [...json, ...proto]),
  };
}
