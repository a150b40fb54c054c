// An inferred schema meets the records after its sample: each record is checked at the fields
// the filter reads, and a value of another type either widens the schema (a timestamp field
// holding other text becomes a string; an integer field holding 2.5 a double), said once on
// stderr, or is a value the schema cannot read: reported, never silently left unmatched.
import {
  type FieldRef,
  type FieldType,
  type PathStep,
  parseTimestamp,
  type ResourceSchema,
} from '@listkit/query';

/** What a record holds at a field the filter reads, against the schema. */
export type GuardVerdict =
  | { kind: 'ok' }
  | {
      kind: 'widen';
      ref: FieldRef;
      schema: ResourceSchema;
      from: string;
      to: string;
      value: unknown;
    }
  | { kind: 'unreadable'; ref: FieldRef; value: unknown };

const OK: GuardVerdict = { kind: 'ok' };

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a number' : `a ${typeof value}`;
}

/** A description of `value` for messages: short, one line. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `${jsonKind(value)} (${text.length > 40 ? `${text.slice(0, 39)}…` : text})`;
}

/**
 * The message of a record whose value at a field the filter reads its inferred type cannot
 * read, the record found at `where` (`file:line:column`).
 *
 * @example
 * ```ts
 * unreadableMessage(verdict, 'in.ndjson:7:1'); // "in.ndjson:7:1: field 'x' holds a string (\"a\"), which …"
 * ```
 */
export function unreadableMessage(
  verdict: { ref: FieldRef; value: unknown },
  where: string,
): string {
  return `${where}: field '${verdict.ref.path}' holds ${describeValue(verdict.value)}, which its type inferred from earlier records (${verdict.ref.type.kind}) cannot read; give --schema`;
}

/** The type `value` needs instead of `type`, `type` itself when it fits, undefined when none. */
function fit(type: FieldType, value: unknown): FieldType | undefined {
  switch (type.kind) {
    case 'string':
    case 'enum':
    case 'duration':
      return typeof value === 'string' ? type : undefined;
    case 'timestamp':
      if (typeof value !== 'string') return undefined;
      return parseTimestamp(value) ? type : { kind: 'string' };
    case 'int64':
      if (typeof value === 'number') return Number.isInteger(value) ? type : { kind: 'double' };
      return typeof value === 'string' && /^-?\d+$/.test(value) ? type : undefined;
    case 'double':
      return typeof value === 'number' ? type : undefined;
    case 'bool':
      return typeof value === 'boolean' ? type : undefined;
    case 'message':
    case 'map':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? type
        : undefined;
    case 'repeated': {
      if (!Array.isArray(value)) return undefined;
      let element = type.element;
      for (const item of value) {
        if (item === null || item === undefined) continue;
        const fitted = fit(element, item);
        if (!fitted) return undefined;
        element = fitted;
      }
      return element === type.element ? type : { ...type, element };
    }
  }
}

/** The schema with the type at `steps` replaced by `replacement`. */
function replaceAt(
  schema: ResourceSchema,
  steps: readonly PathStep[],
  replacement: FieldType,
): ResourceSchema {
  const rebuild = (type: FieldType, at: number): FieldType => {
    if (at === steps.length) return replacement;
    const step = steps[at]!;
    if (step.kind === 'field' && type.kind === 'message') {
      return {
        ...type,
        fields: { ...type.fields, [step.name]: rebuild(type.fields[step.name]!, at + 1) },
      };
    }
    if (step.kind === 'key' && type.kind === 'map')
      return { ...type, value: rebuild(type.value, at + 1) };
    if (step.kind === 'each' && type.kind === 'repeated') {
      return { ...type, element: rebuild(type.element, at + 1) };
    }
    return type;
  };
  const root = rebuild({ kind: 'message', fields: schema.fields }, 0);
  return { ...schema, fields: (root as { fields: ResourceSchema['fields'] }).fields };
}

/**
 * Checks `record` at every field in `refs`: ok, a widened schema (the first field that needs
 * one), or the first value the schema cannot read.
 *
 * @example
 * ```ts
 * const verdict = guardRecord({ x: 2.5 }, checkedFieldsOf(compiled.checked), schema);
 * if (verdict.kind === 'widen') schema = verdict.schema; // x: int64 → double
 * ```
 */
export function guardRecord(
  record: object,
  refs: readonly FieldRef[],
  schema: ResourceSchema,
): GuardVerdict {
  for (const ref of refs) {
    // Values reached along the path; `each` fans out over an array's elements.
    let values: unknown[] = [record];
    let type = { kind: 'message', fields: schema.fields } as FieldType;
    for (const step of ref.steps) {
      const next: unknown[] = [];
      for (const value of values) {
        if (value === null || value === undefined) continue;
        if (step.kind === 'each') {
          if (!Array.isArray(value)) return { kind: 'unreadable', ref, value };
          next.push(...value);
        } else if (typeof value !== 'object' || Array.isArray(value)) {
          return { kind: 'unreadable', ref, value };
        } else {
          next.push((value as Record<string, unknown>)[step.name]);
        }
      }
      values = next;
      type =
        step.kind === 'each' && type.kind === 'repeated'
          ? type.element
          : step.kind === 'key' && type.kind === 'map'
            ? type.value
            : step.kind === 'field' && type.kind === 'message'
              ? (type.fields[step.name] ?? ref.type)
              : ref.type;
    }
    for (const value of values) {
      if (value === null || value === undefined) continue;
      const fitted = fit(type, value);
      if (!fitted) return { kind: 'unreadable', ref, value };
      if (fitted !== type) {
        return {
          kind: 'widen',
          ref,
          value,
          from: type.kind,
          to: fitted.kind === 'repeated' ? fitted.element.kind : fitted.kind,
          schema: replaceAt(schema, ref.steps, fitted),
        };
      }
    }
  }
  return OK;
}
