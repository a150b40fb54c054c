// Filters and orderBys for `listkit conform`, made from the schema and the listing itself:
// deterministic for a seed, bounded in count, varied in kind.
import type { FieldType, ResourceSchema } from '@listkit/query';
import type { ListStyle } from '@listkit/query/list-method';
import { seededRandom } from '@listkit/service/schema';

type Item = Record<string, unknown>;

/** The value at a dotted path, or undefined. */
export function valueAt(item: unknown, path: string): unknown {
  let value = item;
  for (const step of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

const SCALARS = new Set(['string', 'enum', 'int64', 'double', 'bool', 'timestamp']);
/** Text safe to quote in a filter literal and to use as a regex prefix without escaping. */
const PLAIN = /^[A-Za-z0-9_.:/@+-]*$/;
const PREFIX = /^[A-Za-z0-9_/-]+/;

interface Field {
  path: string;
  type: FieldType;
}

function fieldsOf(schema: ResourceSchema): Field[] {
  const out: Field[] = [];
  const walk = (fields: Readonly<Record<string, FieldType>>, prefix: string, depth: number) => {
    for (const [name, type] of Object.entries(fields)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (type.kind === 'message' && depth < 2) walk(type.fields, path, depth + 1);
      else out.push({ path, type });
    }
  };
  walk(schema.fields, '', 0);
  return out;
}

/** A literal for a filter: quoted text, or the number or boolean as written. */
function literal(type: FieldType, value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string' || !PLAIN.test(value)) return undefined;
  if (type.kind === 'enum') return value;
  return JSON.stringify(value);
}

/**
 * Up to `max` filters over the listing's fields, round-robin over kinds: equality and
 * inequality, ranges, wildcards (regex `eq` in the Compute style), `:` on maps and repeated
 * fields, and AND/OR/NOT of those.
 */
export function generateFilters(
  schema: ResourceSchema,
  items: readonly Item[],
  style: ListStyle,
  max: number,
  seed: number,
): string[] {
  const next = seededRandom(seed);
  const pickItem = () => items[Math.floor(next() * items.length)];
  const kinds: Record<string, string[]> = {
    equality: [],
    inequality: [],
    range: [],
    wildcard: [],
    has: [],
    composite: [],
  };
  if (items.length === 0) return [];
  const simple: string[] = [];
  for (const { path, type } of fieldsOf(schema)) {
    const values = [0, 1].map(() => valueAt(pickItem(), path)).filter((v) => v !== undefined);
    if (SCALARS.has(type.kind)) {
      for (const value of values) {
        const lit = literal(type, value);
        if (lit === undefined) continue;
        kinds.equality!.push(`${path} = ${lit}`);
        kinds.inequality!.push(`${path} != ${lit}`);
        simple.push(`${path} = ${lit}`);
        if (['int64', 'double', 'timestamp'].includes(type.kind)) {
          kinds.range!.push(`${path} > ${lit}`, `${path} <= ${lit}`);
        }
        const head = type.kind === 'string' ? telling(value, path, items) : undefined;
        if (head !== undefined) {
          kinds.wildcard!.push(
            style === 'compute' ? `${path} eq "${head}.*"` : `${path} = "${head}*"`,
          );
        }
      }
    } else if (type.kind === 'map') {
      for (const value of values) {
        if (value === null || typeof value !== 'object') continue;
        const keys = Object.keys(value).filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
        const key = keys[Math.floor(next() * keys.length)];
        if (key === undefined) continue;
        kinds.has!.push(`${path}.${key}:*`, `${path}:${key}`);
        const v = (value as Record<string, unknown>)[key];
        const lit = literal(type.value, v);
        if (lit !== undefined) {
          kinds.equality!.push(`${path}.${key} = ${lit}`);
          kinds.has!.push(`${path}.${key}:${lit}`);
          simple.push(`${path}.${key} = ${lit}`);
        }
      }
    } else if (type.kind === 'repeated' && SCALARS.has(type.element.kind)) {
      for (const value of values) {
        if (!Array.isArray(value) || value.length === 0) continue;
        const lit = literal(type.element, value[Math.floor(next() * value.length)]);
        if (lit !== undefined) kinds.has!.push(`${path}:${lit}`);
      }
    }
  }
  const some = () => simple[Math.floor(next() * simple.length)];
  for (let i = 0; i < 6 && simple.length > 1; i++) {
    const [a, b] = [some(), some()];
    kinds.composite!.push([`${a} AND ${b}`, `${a} OR ${b}`, `NOT ${a}`][i % 3]!);
  }
  // Shuffle each kind, then take one of each kind in turn.
  const lists = Object.values(kinds).map((list) => shuffle([...new Set(list)], next));
  const out: string[] = [];
  while (out.length < max && lists.some((l) => l.length > 0)) {
    for (const list of lists) {
      const filter = list.shift();
      if (filter !== undefined && out.length < max) out.push(filter);
    }
  }
  return out;
}

/**
 * The shortest prefix (of at least two plain characters) of the value that not every item's
 * value starts with, so that the wildcard selects; else the longest plain prefix.
 */
function telling(value: unknown, path: string, items: readonly Item[]): string | undefined {
  const plain = typeof value === 'string' ? PREFIX.exec(value)?.[0] : undefined;
  if (plain === undefined || plain.length < 2) return undefined;
  const values = items.map((i) => valueAt(i, path));
  for (let length = 2; length <= plain.length; length++) {
    const head = plain.slice(0, length);
    if (values.some((v) => typeof v !== 'string' || !v.startsWith(head))) return head;
  }
  return plain;
}

function shuffle<T>(list: T[], next: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/**
 * A few orderBys from the schema: the key ascending and descending, a timestamp (or other
 * sortable) field both ways, and two fields.
 */
export function generateOrderBys(schema: ResourceSchema, items: readonly Item[]): string[] {
  const sortable = fieldsOf(schema).filter(
    (f) =>
      SCALARS.has(f.type.kind) &&
      f.type.sortable !== false &&
      f.path !== schema.key &&
      items.some((i) => valueAt(i, f.path) !== undefined),
  );
  const time = sortable.find((f) => f.type.kind === 'timestamp') ?? sortable[0];
  // A field with repeated values, so the second term matters.
  const grouping = sortable.find((f) => {
    const distinct = new Set(items.map((i) => String(valueAt(i, f.path)))).size;
    return f !== time && distinct > 1 && distinct <= items.length / 2;
  });
  const out = [schema.key, `${schema.key} desc`];
  if (time) out.push(`${time.path} desc`, time.path);
  if (grouping && time) out.push(`${grouping.path}, ${time.path} desc`);
  return out;
}
