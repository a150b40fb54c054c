import { ListkitError, type ListkitErrorCode, type Span } from '../errors.js';
import { compareStrings } from '../schema/compare-strings.js';
import { type FieldNameTable, fieldNameTable } from '../schema/field-names.js';
import {
  type Fields,
  type FieldType,
  lookupPath,
  type ResourceSchema,
} from '../schema/field-type.js';
import { compareSortValues, type SortValue, toSortValue } from './sort-key.js';

/**
 * One `field [asc|desc]` of an orderBy.
 *
 * @example
 * ```ts
 * parseOrderBy('creationTimestamp desc', schema).terms[0]; // { path: 'creationTimestamp', descending: true, … }
 * ```
 */
export interface OrderTerm {
  path: string;
  type: FieldType;
  descending: boolean;
  span: Span;
}

/**
 * A resource's position in an ordering: one {@link SortValue} per term, the unique key last.
 *
 * @example
 * ```ts
 * const key: SortKey = parseOrderBy('name', schema).sortKey({ name: 'web-1' }); // ['web-1']
 * ```
 */
export type SortKey = SortValue[];

/**
 * A checked orderBy: its terms, its canonical text, and the total order it defines.
 *
 * @example
 * ```ts
 * const order: OrderBy<Rule> = parseOrderBy('creationTimestamp desc', schema);
 * rules.sort(order.compare);
 * order.canonical; // 'creationTimestamp desc'
 * ```
 */
export interface OrderBy<T = unknown> {
  /** The terms as written (the unique key is not added here). */
  readonly terms: readonly OrderTerm[];
  /** The terms that define the order: {@link terms}, then the schema key unless already there. */
  readonly keyTerms: readonly OrderTerm[];
  /** Canonical text such as `name, creationTimestamp desc`; `''` for the default order. */
  readonly canonical: string;
  /** The resource's sort key. */
  sortKey(resource: T): SortKey;
  /** Orders two sort keys of this ordering. */
  compareKeys(a: SortKey, b: SortKey): number;
  /** Orders two resources: a total order, since the unique key always ends it. */
  compare(a: T, b: T): number;
}

/**
 * Options of {@link parseOrderBy}.
 *
 * @example
 * ```ts
 * parseOrderBy(text, schema, { allowed: ['', 'name', 'creationTimestamp desc'] });
 * ```
 */
export interface OrderByOptions {
  /**
   * The only orderings accepted, in canonical form (`''` is the default order). Compute Engine,
   * for example, accepts `['', 'name', 'creationTimestamp desc']`. Defaults to the schema's
   * `orderings`, or any ordering of sortable fields.
   */
  allowed?: readonly string[];
}

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Parses and checks an AIP-132 orderBy against a schema. Redundant spaces are insignificant;
 * `asc` is accepted; the schema's unique key always ends the order so that paging is
 * deterministic. Throws a {@link ListkitError} on bad input.
 *
 * @example
 * ```ts
 * const order = parseOrderBy(' creationTimestamp desc , name', schema);
 * order.canonical;                // 'creationTimestamp desc, name'
 * rules.sort(order.compare);
 * ```
 */
export function parseOrderBy<T = unknown>(
  text: string,
  schema: ResourceSchema,
  options: OrderByOptions = {},
): OrderBy<T> {
  // Annotated so that TypeScript narrows after a call (assertion-style control flow).
  const fail: (code: ListkitErrorCode, message: string, span: Span) => never = (
    code,
    message,
    span,
  ) => {
    throw ListkitError.of('orderBy', code, message, span, text);
  };
  const terms: OrderTerm[] = [];
  if (text.trim() !== '') {
    let offset = 0;
    for (const part of text.split(',')) {
      const span = { start: offset, end: offset + part.length };
      offset += part.length + 1;
      const words = [...part.matchAll(/\S+/g)];
      if (words.length === 0)
        fail('invalid_order_by', 'empty term in orderBy (two commas, or a comma at an end)', span);
      const [field, direction, extra] = words as [
        RegExpExecArray,
        RegExpExecArray?,
        RegExpExecArray?,
      ];
      const at = (m: RegExpExecArray) => ({
        start: span.start + m.index,
        end: span.start + m.index + m[0].length,
      });
      if (extra)
        fail(
          'invalid_order_by',
          `unexpected '${extra[0]}': a term is a field and an optional asc or desc`,
          at(extra),
        );
      if (direction && direction[0] !== 'asc' && direction[0] !== 'desc') {
        fail(
          'invalid_order_by',
          `unknown direction '${direction[0]}'; use asc or desc`,
          at(direction),
        );
      }
      const fieldSpan = at(field);
      const written = field[0];
      if (!PATH.test(written))
        fail('invalid_order_by', `'${written}' is not a field path`, fieldSpan);
      const resolved = resolveSortPath(schema, written);
      if ('unknown' in resolved) fail('unknown_field', resolved.unknown, fieldSpan);
      const { path, type } = resolved;
      if (
        type.kind === 'message' ||
        type.kind === 'map' ||
        type.kind === 'repeated' ||
        type.sortable === false
      ) {
        fail('unsortable_field', `'${written}' cannot be sorted on`, fieldSpan);
      }
      if (terms.some((t) => t.path === path)) {
        fail('duplicate_order_by_field', `'${written}' is listed twice in orderBy`, fieldSpan);
      }
      terms.push({ path, type, descending: direction?.[0] === 'desc', span: fieldSpan });
    }
  }
  const canonical = terms.map((t) => (t.descending ? `${t.path} desc` : t.path)).join(', ');
  const allowed = options.allowed ?? schema.orderings;
  if (allowed && !allowed.includes(canonical)) {
    const list = allowed.map((a) => (a === '' ? '(default)' : `'${a}'`)).join(', ');
    fail(
      'unsupported_order_by',
      `unsupported orderBy '${canonical}'; supported orderings are ${list}`,
      {
        start: 0,
        end: text.length,
      },
    );
  }
  return buildOrder<T>(terms, canonical, schema);
}

/**
 * A written orderBy path as the schema's JSON path and its type, each segment spelled as the
 * schema's `fieldNames` allows; or why it names no field, in the caller's spelling.
 */
function resolveSortPath(
  schema: ResourceSchema,
  written: string,
): { path: string; type: FieldType } | { unknown: string } {
  let fields: Fields | undefined = schema.fields;
  let type: FieldType | undefined;
  const path: string[] = [];
  for (const segment of written.split('.')) {
    const names: FieldNameTable | undefined = fields && fieldNameTable(fields, schema.fieldNames);
    const name: string | undefined = names?.jsonName(segment);
    if (!names || name === undefined) {
      const guess = names?.suggestion(segment);
      const prefix = path.length > 0 ? written.split('.').slice(0, path.length).join('.') : '';
      const where = prefix ? `'${prefix}' has no field '${segment}'` : `unknown field '${segment}'`;
      return { unknown: `${where}${guess ? `; did you mean '${guess}'?` : ''}` };
    }
    path.push(name);
    type = fields![name]!;
    fields = type.kind === 'message' ? type.fields : undefined;
  }
  return { path: path.join('.'), type: type! };
}

function buildOrder<T>(terms: OrderTerm[], canonical: string, schema: ResourceSchema): OrderBy<T> {
  const keyTerms = terms.some((t) => t.path === schema.key)
    ? terms
    : [
        ...terms,
        {
          path: schema.key,
          type: lookupPath(schema, schema.key.split('.'))!,
          descending: false,
          span: { start: 0, end: 0 },
        },
      ];
  const readers = keyTerms.map((term) => {
    const steps = term.path.split('.');
    return (resource: unknown): SortValue => {
      let value: unknown = resource;
      for (const step of steps) {
        if (typeof value !== 'object' || value === null) return null;
        value = (value as Record<string, unknown>)[step];
      }
      return toSortValue(term.type, value);
    };
  });
  const compareKeys = keyComparator(keyTerms);
  const sortKey = (resource: T): SortKey => readers.map((read) => read(resource));
  return {
    terms,
    keyTerms,
    canonical,
    sortKey,
    compareKeys,
    compare: (a, b) => compareKeys(sortKey(a), sortKey(b)),
  };
}

/** Orders two sort values of one term; a missing value (a short key) counts as null. */
type ValueComparator = (a: SortValue | undefined, b: SortValue | undefined) => number;

function valueComparator(term: OrderTerm): ValueComparator {
  const sign = term.descending ? -1 : 1;
  // Strings (names, the usual unique key) skip compareSortValues' type dispatch: indexes call
  // this ~20 times per insert and seek.
  const compare =
    term.type.kind === 'string'
      ? (a: SortValue, b: SortValue) => compareStrings(a as string, b as string)
      : compareSortValues;
  return (a, b) => {
    if (a === b) return 0;
    if (a == null || b == null) return a == null ? (b == null ? 0 : -sign) : sign;
    return sign * compare(a, b);
  };
}

/** The comparator of sort keys: term by term, unrolled for the common one and two terms. */
function keyComparator(keyTerms: readonly OrderTerm[]): (a: SortKey, b: SortKey) => number {
  const terms = keyTerms.map(valueComparator);
  const [first, second] = terms;
  if (terms.length === 1 && first) return (a, b) => first(a[0], b[0]);
  if (terms.length === 2 && first && second) {
    return (a, b) => first(a[0], b[0]) || second(a[1], b[1]);
  }
  return (a, b) => {
    for (let i = 0; i < terms.length; i++) {
      const c = terms[i]!(a[i], b[i]);
      if (c !== 0) return c;
    }
    return 0;
  };
}
