// The options every schema source shares, applied once to what the source read: orderings and
// searchable fields, checked against the fields so a typo is an error, not a silent no-op.
import { lookupPath, type ResourceSchema } from '../field-type.js';
import { SchemaSourceError, type SchemaSourceOptions } from './schema-source.js';

/** `schema` with `options.orderings` and `options.searchable` applied and checked. */
export function withOptions(schema: ResourceSchema, options: SchemaSourceOptions): ResourceSchema {
  const key = lookupPath(schema, schema.key.split('.'));
  if (
    !key ||
    !['string', 'int64', 'double', 'timestamp', 'duration', 'enum', 'bool'].includes(key.kind)
  ) {
    throw new SchemaSourceError(
      'invalid_option',
      '',
      `key '${schema.key}' must name a field of a scalar type (fields: ${Object.keys(schema.fields).join(', ') || 'none'})`,
    );
  }
  let fields = schema.fields;
  for (const path of options.searchable ?? []) {
    const type = lookupPath({ ...schema, fields }, path.split('.'));
    if (type?.kind !== 'string') {
      throw new SchemaSourceError(
        'invalid_option',
        '',
        `searchable '${path}' must name a string field${type ? `, not ${type.kind}` : ''}`,
      );
    }
    fields = markSearchable(fields, path.split('.'));
  }
  return {
    ...schema,
    fields,
    ...(options.orderings ? { orderings: [...options.orderings] } : {}),
  };
}

function markSearchable(
  fields: ResourceSchema['fields'],
  [head, ...rest]: string[],
): ResourceSchema['fields'] {
  const type = fields[head!]!;
  if (rest.length === 0) return { ...fields, [head!]: { ...type, searchable: true } };
  if (type.kind !== 'message') return fields;
  return { ...fields, [head!]: { ...type, fields: markSearchable(type.fields, rest) } };
}
