// What the schema says about each field, in words: the one source for the Fields panel, the
// editor's hover docs and its completions. Read from the same ResourceSchema the engine checks
// filters against, so the reference cannot drift from what the engine accepts.
import type { FieldType, ResourceSchema } from '@listkit/query';

export interface FieldDoc {
  /** Dotted path as a filter writes it (`metadataFilters.filterMatchCriteria`). */
  path: string;
  type: FieldType;
  /** The type in words: `enum`, `map of string`, `repeated message`. */
  typeText: string;
  /** Enum values, or true/false for bools. */
  values: readonly string[];
  /** May appear in orderBy (the schema's orderings when it lists them). */
  sortable: boolean;
  /** Searched by bare words (AIP-160 global restrictions). */
  searchable: boolean;
}

export function typeText(type: FieldType): string {
  switch (type.kind) {
    case 'map':
      return `map of ${typeText(type.value)}`;
    case 'repeated':
      return `repeated ${typeText(type.element)}`;
    default:
      return type.kind;
  }
}

function valuesOf(type: FieldType): readonly string[] {
  if (type.kind === 'enum') return type.values;
  if (type.kind === 'bool') return ['true', 'false'];
  if (type.kind === 'repeated' || type.kind === 'map')
    return valuesOf(type.kind === 'map' ? type.value : type.element);
  return [];
}

/** Every field path of the schema, nested messages (also inside repeated fields) included. */
export function fieldDocs(schema: ResourceSchema): FieldDoc[] {
  const sortablePaths = schema.orderings
    ? new Set(schema.orderings.map((o) => o.split(/\s+/)[0]).filter(Boolean))
    : undefined;
  const docs: FieldDoc[] = [];
  const walk = (fields: Readonly<Record<string, FieldType>>, prefix: string, nested: boolean) => {
    for (const [name, type] of Object.entries(fields)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const scalar = type.kind !== 'message' && type.kind !== 'map' && type.kind !== 'repeated';
      docs.push({
        path,
        type,
        typeText: typeText(type),
        values: valuesOf(type),
        sortable:
          !nested &&
          scalar &&
          type.sortable !== false &&
          (sortablePaths ? sortablePaths.has(path) : true),
        searchable: type.searchable === true,
      });
      const inner =
        type.kind === 'message'
          ? type
          : type.kind === 'repeated' && type.element.kind === 'message'
            ? type.element
            : undefined;
      if (inner) walk(inner.fields, path, nested || type.kind === 'repeated');
    }
  };
  walk(schema.fields, '', false);
  return docs;
}

/** One line for a hover: type, values, sortable. */
export function fieldSummary(doc: FieldDoc): string {
  const parts = [`${doc.path}: ${doc.typeText}`];
  if (doc.values.length > 0) parts.push(`values ${doc.values.join(', ')}`);
  parts.push(doc.sortable ? 'sortable (orderBy)' : 'not sortable');
  if (doc.searchable) parts.push('searched by bare words');
  return parts.join(' · ');
}

/** What each operator means, per filter style. */
export const OPERATOR_DOCS: Record<string, { aip: string; regex?: string }> = {
  '=': { aip: 'equals (a * inside a string value is a wildcard)' },
  '!=': { aip: 'does not equal' },
  '<': { aip: 'less than (numbers, timestamps, durations, enums in declared order)' },
  '<=': { aip: 'less than or equal' },
  '>': { aip: 'greater than' },
  '>=': { aip: 'greater than or equal' },
  ':': {
    aip: 'has: a repeated field contains the value, a map has the key, :* means the field is set',
  },
  eq: { aip: 'not an AIP-160 operator', regex: 'the whole value matches the RE2 pattern' },
  ne: { aip: 'not an AIP-160 operator', regex: 'the whole value does not match the RE2 pattern' },
  AND: { aip: 'both sides hold; binds looser than OR (a space is also AND)' },
  OR: { aip: 'either side holds; binds tighter than AND' },
  NOT: { aip: 'the next term does not hold (also written -)' },
};
