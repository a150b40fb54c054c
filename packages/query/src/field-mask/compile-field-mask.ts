import { ListkitError } from '../errors.js';
import type { FieldType, MessageType, ResourceSchema } from '../schema/field-type.js';
import { suggest } from '../schema/suggest.js';
import {
  DEFAULT_FIELD_MASK_LIMITS,
  type FieldMaskLimits,
  type MaskSegment,
  type MaskSelection,
  parseFieldMask,
} from './parse-field-mask.js';
import { merge, type Projection, projectionPaths, projector } from './projection.js';

/**
 * A field mask read once and checked against a type: apply it to as many values as needed.
 *
 * @example
 * ```ts
 * const mask = compileFieldMask('items(name,labels),nextPageToken', listResponseType(schema));
 * res.json(mask.apply(page)); // { items: [{ name, labels }, …], nextPageToken }
 * ```
 */
export interface FieldMask {
  /** The mask as written. */
  readonly source: string;
  /** True when the mask keeps everything (empty, `*`, or every path covered by a `*`). */
  readonly selectsAll: boolean;
  /**
   * The selected paths in AIP-161 form, sorted: `.` between steps, `*` for every element of a
   * repeated field and every value of a map (`items.*.name`), keys in backticks when needed.
   * `['*']` when the mask keeps everything.
   */
  readonly paths: readonly string[];
  /**
   * The top-level fields the mask reads, or undefined when it keeps them all: what a store
   * needs to fetch for it (a projected column list).
   */
  readonly topLevelFields: readonly string[] | undefined;
  /**
   * A copy of `value` holding only the selected paths (the input is never changed). Selected
   * fields the value does not have are left out; a value whose shape differs from the type
   * (a string where a message was declared) is kept as it is.
   */
  apply(value: unknown): unknown;
}

/**
 * Options of {@link compileFieldMask}.
 *
 * @example
 * ```ts
 * compileFieldMask('name', schema, { limits: { ...DEFAULT_FIELD_MASK_LIMITS, maxLength: 512 } });
 * ```
 */
export interface FieldMaskOptions {
  limits?: FieldMaskLimits;
}

/**
 * Reads a field mask ({@link parseFieldMask}: the `fields` syntax or AIP-161 paths) and checks
 * every path against `type` (a resource schema, or a message type such as
 * {@link listResponseType}). A step may name a field by its JSON name or its proto name
 * (`ip_version` for `ipVersion`). A repeated field is crossed by the next step (`items/name`,
 * every element) or by `*` (`items.*.name`); a map's steps are keys (`labels.env`) or `*`; `*`
 * alone on a message keeps all of it. Throws a {@link ListkitError} (input `fields`): a path
 * that cannot exist is `unknown_field` naming it, with a "did you mean" when one is close; an
 * index into a repeated field (`items.0`), a step below a scalar, or bad syntax is
 * `invalid_field_mask`. The empty mask keeps everything, as Google's system parameter does.
 *
 * @example
 * ```ts
 * const mask = compileFieldMask('name,labels.env', schema);
 * mask.apply({ name: 'a', size: 3, labels: { env: 'prod', team: 'x' } });
 * // { name: 'a', labels: { env: 'prod' } }
 * compileFieldMask('nmae', schema); // throws: unknown field 'nmae'; did you mean 'name'? (1:1)
 * ```
 */
export function compileFieldMask(
  text: string,
  type: ResourceSchema | MessageType,
  options: FieldMaskOptions = {},
): FieldMask {
  const root: MessageType = 'kind' in type ? type : { kind: 'message', fields: type.fields };
  const selections = parseFieldMask(text, options.limits ?? DEFAULT_FIELD_MASK_LIMITS);
  const projection: Projection =
    selections.length === 0 ? { kind: 'all' } : new MaskChecker(text).list(root, selections, '');
  const paths = projectionPaths(projection);
  return {
    source: text,
    selectsAll: projection.kind === 'all',
    paths,
    topLevelFields:
      projection.kind === 'message' ? [...projection.fields.keys()].sort() : undefined,
    apply: projector(projection),
  };
}

/**
 * The message type of a list response: the resources under `items` (or the name given), the
 * `nextPageToken`, and any other fields the API answers (Compute's `kind`, `id`, `selfLink`,
 * `warning`; AIP-158's `totalSize`).
 *
 * @example
 * ```ts
 * listResponseType(schema, { items: 'books', fields: { totalSize: t.int64() } });
 * ```
 */
export function listResponseType(
  schema: ResourceSchema,
  options: { items?: string; fields?: Record<string, FieldType> } = {},
): MessageType {
  return {
    kind: 'message',
    fields: {
      ...options.fields,
      [options.items ?? 'items']: {
        kind: 'repeated',
        element: { kind: 'message', fields: schema.fields },
      },
      nextPageToken: { kind: 'string' },
    },
  };
}

/** Checks selections against types, building the projection; throws at the first problem. */
class MaskChecker {
  constructor(private readonly text: string) {}

  list(type: FieldType, selections: readonly MaskSelection[], where: string): Projection {
    let projection: Projection | undefined;
    for (const s of selections) {
      const next = this.select(type, s.path, 0, s.children, where);
      projection = projection ? merge(projection, next) : next;
    }
    return projection ?? { kind: 'all' };
  }

  private select(
    type: FieldType,
    path: readonly MaskSegment[],
    i: number,
    children: readonly MaskSelection[] | undefined,
    where: string,
  ): Projection {
    if (i === path.length) {
      if (!children) return { kind: 'all' };
      if (isScalar(type)) this.fail(path[i - 1]!, `'${where}' has no fields to select`);
      return this.list(type, children, where);
    }
    const step = path[i]!;
    const here = where === '' ? step.name : `${where}.${step.name}`;
    switch (type.kind) {
      case 'repeated':
        if (/^\d+$/.test(step.name)) {
          this.fail(
            step,
            `'${where}' is a repeated field: its elements cannot be selected by index`,
          );
        }
        return each(
          step.star
            ? this.select(type.element, path, i + 1, children, here)
            : this.select(type.element, path, i, children, where),
        );
      case 'map': {
        const value = this.select(type.value, path, i + 1, children, here);
        if (step.star)
          return value.kind === 'all' ? value : { kind: 'map', keys: new Map(), values: value };
        return { kind: 'map', keys: new Map([[step.name, value]]) };
      }
      case 'message': {
        if (step.star) {
          if (i + 1 < path.length || children) {
            this.fail(step, "'*' on a message selects all of it and must end the path");
          }
          return { kind: 'all' };
        }
        const name = fieldName(type, step.name);
        if (name === undefined) {
          const guess = suggest(step.name, Object.keys(type.fields));
          const shown = where === '' ? step.name : `${where}.${step.name}`;
          const hint = guess
            ? `; did you mean '${where === '' ? guess : `${where}.${guess}`}'?`
            : '';
          this.fail(step, `unknown field '${shown}'${hint}`, 'unknown_field');
        }
        const field = type.fields[name]!;
        const inner = this.select(
          field,
          path,
          i + 1,
          children,
          where === '' ? name : `${where}.${name}`,
        );
        return { kind: 'message', fields: new Map([[name, inner]]) };
      }
      default:
        return this.fail(step, `'${where}' is a ${type.kind} and has no field '${step.name}'`);
    }
  }

  private fail(
    step: MaskSegment,
    message: string,
    code: 'invalid_field_mask' | 'unknown_field' = 'invalid_field_mask',
  ): never {
    throw ListkitError.of('fields', code, message, step.span, this.text);
  }
}

/** Every element of a repeated field: all of each element is all of the field. */
function each(element: Projection): Projection {
  return element.kind === 'all' ? element : { kind: 'each', element };
}

function isScalar(type: FieldType): boolean {
  return type.kind !== 'message' && type.kind !== 'map' && type.kind !== 'repeated';
}

/** The declared field a step names: its JSON name, or its proto (snake_case) name. */
function fieldName(type: MessageType, step: string): string | undefined {
  if (Object.hasOwn(type.fields, step)) return step;
  if (!step.includes('_')) return undefined;
  const camel = step.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (Object.hasOwn(type.fields, camel)) return camel;
  // Compute's capitalised names (`IPAddress` is `i_p_address` in the proto).
  return Object.keys(type.fields).find((f) => snake(f) === step);
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c, at: number) =>
    at === 0 ? c.toLowerCase() : `_${c.toLowerCase()}`,
  );
}
