import type { CheckedNode, FieldRef, Operand, PathStep } from '../filter/checked.js';
import { compileGlob, hasWildcard } from '../filter/glob.js';
import type { RegexEngine } from '../filter/regex/regex-engine.js';
import type { FieldType } from '../schema/field-type.js';
import { microsecondText, nanosText } from './column-values.js';
import type { PatternPiece, SqlDialect } from './dialect.js';
import { regexLiteralFragments, regexLiteralPrefix, translateRegex } from './regex-translation.js';
import { isStorableText, type Parameters } from './sql-text.js';
import type { SqlColumn, SqlInexactColumn, SqlTable } from './table.js';

/**
 * A filter as a SQL condition. `exact` means the condition selects exactly the resources the
 * in-memory engine matches; otherwise it selects a superset and the residual predicate decides.
 */
export interface Translation {
  sql: string;
  exact: boolean;
}

/** What the translation reads and writes. */
export interface TranslationContext {
  table: SqlTable;
  params: Parameters;
  /** Evaluates regex patterns against enum and bool values at plan time. */
  regexEngine: RegexEngine;
  /** Numbers the aliases of list-element subqueries within one statement. */
  aliases: { count: number };
  /**
   * False under a NOT. Where a NULL result can only reject a row (no NOT above it), leaves are
   * left bare, which keeps them index-friendly (`labels @> …` inside COALESCE cannot use GIN).
   */
  positive?: boolean;
  /** The columns the translation read (the plan reports the inexact ones). */
  used?: Set<SqlColumn>;
  /** What the dialect could not push down and left to the residual, and why (`plan.inexact`). */
  leftToResidual?: SqlInexactColumn[];
}

const ALL: Translation = { sql: 'TRUE', exact: true };
/** Nothing pushed down for this node: the residual predicate decides. */
const RESIDUAL: Translation = { sql: 'TRUE', exact: false };

/**
 * Translates a checked filter to a two-valued SQL condition: every leaf is wrapped so that an
 * unknown (NULL) result is false, as in the in-memory engine, so NOT never meets a NULL.
 */
export function translateFilter(node: CheckedNode, context: TranslationContext): Translation {
  const mark = context.params.values.length;
  const result = translateNode(node, context);
  // A subtree that pushes nothing down leaves no parameters behind (PostgreSQL rejects unused
  // parameters whose type it cannot infer).
  if (result.sql === 'TRUE') context.params.values.length = mark;
  return result;
}

function translateNode(node: CheckedNode, context: TranslationContext): Translation {
  switch (node.type) {
    case 'all':
      return ALL;
    case 'and': {
      const parts = node.operands.map((n) => translateFilter(n, context));
      const pushed = parts.filter((p) => p.sql !== 'TRUE');
      return {
        sql: pushed.length === 0 ? 'TRUE' : pushed.map((p) => `(${p.sql})`).join(' AND '),
        exact: parts.every((p) => p.exact),
      };
    }
    case 'or': {
      const parts = node.operands.map((n) => translateFilter(n, context));
      // One branch that cannot be narrowed lets any row through the OR.
      if (parts.some((p) => !p.exact)) return RESIDUAL;
      return { sql: parts.map((p) => `(${p.sql})`).join(' OR '), exact: true };
    }
    case 'not': {
      const inner = translateFilter(node.operand, {
        ...context,
        positive: !(context.positive ?? true),
      });
      // The complement of a superset is not a superset: only an exact operand can be negated.
      return inner.exact ? { sql: `NOT (${inner.sql})`, exact: true } : RESIDUAL;
    }
    case 'compare':
      return compare(node.field, node.comparator, node.operand, context);
    case 'search':
      return search(node.fields, node.text, node.literalStars, context);
    case 'regex': {
      if (node.operator === 'eq') return regex(node.field, node.pattern, context);
      const eq = regex(node.field, node.pattern, { ...context, positive: false });
      return eq.exact ? { sql: `NOT (${eq.sql})`, exact: true } : RESIDUAL;
    }
    case 'call':
      return RESIDUAL;
  }
}

/** Where a field's value comes from: a typed column, or a `jsonb` value reached by a path. */
type Source =
  | { kind: 'column'; column: SqlColumn; guards: string[] }
  | { kind: 'json'; expr: string; guards: string[]; defaultable: boolean };

/**
 * Resolves a path without `each` steps. Scalars reachable through messages have columns; the
 * rest is read from a `jsonb` column (maps, lists) or from the document (messages).
 */
function source(steps: readonly PathStep[], context: TranslationContext): Source | undefined {
  const { table } = context;
  const fieldSteps: string[] = [];
  for (const step of steps) {
    if (step.kind !== 'field') break;
    fieldSteps.push(step.name);
  }
  if (fieldSteps.length === steps.length) {
    const column = table.column(fieldSteps.join('.'));
    if (column && column.sqlType !== 'jsonb') {
      context.used?.add(column);
      // NULL in a nested column means an absent parent (false for every comparison), except for
      // kinds whose unset value is NULL too; those check the parent in the document.
      const needsParent = fieldSteps.length > 1 && ['integer', 'numeric'].includes(column.sqlType);
      return {
        kind: 'column',
        column,
        guards: needsParent ? parentGuards(table, fieldSteps) : [],
      };
    }
  }
  for (let i = fieldSteps.length; i > 0; i--) {
    const column = table.column(fieldSteps.slice(0, i).join('.'));
    if (column?.sqlType === 'jsonb') {
      context.used?.add(column);
      return jsonWalk(
        column.name,
        steps.slice(i),
        context,
        i > 1 ? parentGuards(table, fieldSteps.slice(0, i)) : [],
      );
    }
  }
  // A table of your own has no document: what has no column is decided in memory.
  const document = documentJsonb(table);
  return document === undefined ? undefined : jsonWalk(document, steps, context, []);
}

/**
 * The document as a `jsonb` expression for filters: the column itself, or cast from `json`
 * (`documentType: 'json'`, which pages read without conversion); undefined without a document.
 */
function documentJsonb(table: SqlTable): string | undefined {
  if (table.document === undefined) return undefined;
  return table.dialect.documentJson(table.document, table.documentType ?? 'jsonb');
}

/** Guards that every message on the way to a nested field is present in the document. */
function parentGuards(table: SqlTable, steps: readonly string[]): string[] {
  const document = documentJsonb(table);
  // Tables of your own map top-level fields only; nested columns exist in listkit's layout.
  if (document === undefined) throw new Error('a nested column needs the document');
  const { json } = table.dialect;
  const guards: string[] = [];
  let expr = document;
  for (const step of steps.slice(0, -1)) {
    expr = json.step(expr, step);
    guards.push(json.typeIs(expr, 'object'));
  }
  return guards;
}

function jsonWalk(
  base: string,
  steps: readonly PathStep[],
  context: TranslationContext,
  guards: string[],
): Source {
  const { json } = context.table.dialect;
  let expr = base;
  let defaultable = steps.length === 0;
  const all = [...guards];
  for (const step of steps) {
    if (step.kind === 'each') throw new Error('each steps are walked by the caller');
    if (expr !== documentJsonb(context.table)) all.push(json.typeIs(expr, 'object'));
    if (step.kind === 'field') {
      expr = json.field(expr, step.name);
      defaultable = true;
    } else {
      expr = json.member(expr, context.params.add(step.name, 'jsonkey'));
      all.push(`${expr} IS NOT NULL`);
      defaultable = false;
    }
  }
  return { kind: 'json', expr, guards: all, defaultable };
}

/**
 * Applies a leaf test to the value a path reaches. Paths that cross a list test every element
 * reached (an EXISTS over `jsonb_array_elements`), as the in-memory collector does.
 */
function onPath(
  steps: readonly PathStep[],
  context: TranslationContext,
  test: (source: Source) => string | undefined,
): Translation {
  const each = steps.findIndex((s) => s.kind === 'each');
  if (each < 0) {
    const src = source(steps, context);
    const sql = src && test(src);
    if (!src || sql === undefined) return RESIDUAL;
    return { sql: twoValued([...src.guards, sql], context), exact: true };
  }
  const list = source(steps.slice(0, each), context);
  if (list?.kind !== 'json') return RESIDUAL;
  const { json } = context.table.dialect;
  const alias = `e${++context.aliases.count}`;
  const rest = steps.slice(each + 1);
  const array = `CASE WHEN ${json.typeIs(list.expr, 'array')} THEN ${list.expr} END`;
  const { from, element } = json.elements(array, alias);
  const inner =
    rest.length === 0
      ? (() => {
          const sql = test({ kind: 'json', expr: element, guards: [], defaultable: false });
          return sql === undefined ? undefined : { sql: twoValued([sql], INSIDE), exact: true };
        })()
      : onPathFrom(element, rest, context, test);
  if (!inner?.exact) return RESIDUAL;
  return {
    sql: twoValued([...list.guards, `EXISTS (SELECT 1 FROM ${from} WHERE ${inner.sql})`], context),
    exact: true,
  };
}

/** {@link onPath} over a `jsonb` value (a list element) instead of a row. */
function onPathFrom(
  base: string,
  steps: readonly PathStep[],
  context: TranslationContext,
  test: (source: Source) => string | undefined,
): Translation | undefined {
  const each = steps.findIndex((s) => s.kind === 'each');
  if (each >= 0) return undefined; // lists of lists: left to the residual
  const src = jsonWalk(base, steps, context, []);
  // The element itself must be an object for its fields to be read.
  src.guards.unshift(context.table.dialect.json.typeIs(base, 'object'));
  const sql = test(src);
  return sql === undefined
    ? undefined
    : { sql: twoValued([...src.guards, sql], INSIDE), exact: true };
}

/**
 * A conjunction whose NULL (unknown) is false. Where nothing negates it, NULL already rejects
 * the row, so the COALESCE is left out.
 */
function twoValued(conditions: string[], context: { positive?: boolean }): string {
  const all = conditions.map((c) => `(${c})`).join(' AND ');
  return (context.positive ?? true) ? all : `COALESCE(${all}, false)`;
}

/** The WHERE of a subquery over list elements: never under a NOT from inside. */
const INSIDE = { positive: true };

/** The JSON of each scalar kind's proto3 default, which an absent field reads as. */
const DEFAULT_JSON: Partial<Record<FieldType['kind'], string>> = {
  string: '""',
  int64: '0',
  double: '0',
  bool: 'false',
};

/**
 * The SQL value of a scalar: a column in its encoding, or a `jsonb` value converted (with the
 * type's default when the last field is absent). Undefined when there is no exact conversion.
 */
function scalar(
  src: Source,
  type: FieldType,
  dialect: SqlDialect,
): { expr: string; json: boolean } | undefined {
  if (src.kind === 'column') {
    // In a table of your own, enums compare by label (text); `json` means just that here.
    return {
      expr: src.column.value,
      json: src.column.storage !== undefined && type.kind === 'enum',
    };
  }
  const { json } = dialect;
  const fallback = DEFAULT_JSON[type.kind];
  const x =
    src.defaultable && fallback ? `COALESCE(${src.expr}, ${json.literal(fallback)})` : src.expr;
  switch (type.kind) {
    case 'string':
    case 'enum':
      return { expr: dialect.codePoint(json.text(x)), json: true };
    case 'int64':
      return { expr: json.integer(x), json: true };
    case 'double':
      return { expr: json.double(x), json: true };
    case 'bool':
      return { expr: json.isTrue(x), json: true };
    default:
      return undefined;
  }
}

const SQL_OPERATOR: Readonly<Record<string, string>> = {
  '=': '=',
  ':': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** Literal-star positions after a `*` is put in front of the text. */
const shifted = (stars: readonly number[]) => stars.map((i) => i + 1);

/**
 * An AIP-160 wildcard string as the dialect's pattern text (LIKE, GLOB): `*` is any run of
 * characters, everything else stands for itself.
 */
function likePattern(glob: string, literalStars: readonly number[], dialect: SqlDialect): string {
  const pieces: PatternPiece[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    pieces.push(c === '*' && !literalStars.includes(i) ? 'any' : { text: c });
  }
  return dialect.patternText(pieces);
}

function compare(
  field: FieldRef,
  comparator: string,
  operand: Operand,
  context: TranslationContext,
): Translation {
  const { params } = context;
  const steps = field.steps;
  if (operand.kind === 'presence') {
    return onPath(steps, context, (src) => presence(src, field.type, context));
  }
  if (operand.kind === 'key') {
    if (!isStorableText(operand.value)) return RESIDUAL;
    return onPath(steps, context, (src) => {
      const map = src.kind === 'json' ? src.expr : undefined;
      if (!map) return undefined;
      const { json } = context.table.dialect;
      return `${json.typeIs(map, 'object')} AND ${json.hasKey(map, params.add(operand.value, 'jsonkey'))}`;
    });
  }
  if (operand.kind === 'element') {
    const element = field.type.kind === 'repeated' ? field.type.element : field.type;
    const inner = operand.element;
    return onPath(steps, context, (src) => {
      if (src.kind !== 'json') return undefined;
      const { json, capabilities } = context.table.dialect;
      // As in memory: a string element under `:` contains the text (LIKE), others are equal;
      // only an equality is a containment.
      if (
        capabilities.jsonContainment &&
        element.kind !== 'string' &&
        inner.kind === 'string' &&
        !hasWildcard(inner.value, inner.literalStars)
      ) {
        if (!isStorableText(inner.value)) return undefined;
        // Containment: a GIN index on the column answers it.
        return `${src.expr} @> ${params.add(JSON.stringify([inner.value]), 'jsonb')}`;
      }
      const alias = `e${++context.aliases.count}`;
      const array = `CASE WHEN ${json.typeIs(src.expr, 'array')} THEN ${src.expr} END`;
      const { from, element: value } = json.elements(array, alias);
      const test = leaf(
        { kind: 'json', expr: value, guards: [], defaultable: false },
        element,
        element.kind === 'string' ? ':' : '=',
        inner,
        context,
      );
      if (test === undefined) return undefined;
      return `EXISTS (SELECT 1 FROM ${from} WHERE ${test})`;
    });
  }
  // A map value compared for equality: containment, which a GIN index on the map answers.
  const last = steps[steps.length - 1];
  if (
    context.table.dialect.capabilities.jsonContainment &&
    last?.kind === 'key' &&
    operand.kind === 'string' &&
    comparator === '=' &&
    field.type.kind === 'string' &&
    !hasWildcard(operand.value, operand.literalStars) &&
    isStorableText(operand.value) &&
    isStorableText(last.name) &&
    !steps.some((s) => s.kind === 'each')
  ) {
    // Only a map that is a column itself (no path into JSON, which would add parameters).
    const mapSteps = steps.slice(0, -1);
    const mapColumn = mapSteps.every((s) => s.kind === 'field')
      ? context.table.column(mapSteps.map((s) => (s as { name: string }).name).join('.'))
      : undefined;
    const mapSource = mapColumn?.sqlType === 'jsonb' ? source(mapSteps, context) : undefined;
    if (mapSource?.kind === 'json') {
      const sql = `${mapSource.expr} @> ${params.add(JSON.stringify({ [last.name]: operand.value }), 'jsonb')}`;
      return { sql: twoValued([...mapSource.guards, sql], context), exact: true };
    }
  }
  return onPath(steps, context, (src) => leaf(src, field.type, comparator, operand, context));
}

/** The JSON values the in-memory `isPresent` reads as unset (an absent value is NULL). */
const ABSENT_JSON = ['""', '0', 'false', '[]', '{}', 'null'];
/** An int64 field also writes its default as the JSON string "0". */
const ABSENT_INT64_JSON = [...ABSENT_JSON, '"0"'];

/** Proto3 presence of a `jsonb` value, as the in-memory `isPresent`. */
function presence(src: Source, type: FieldType, context: TranslationContext): string | undefined {
  let x: string;
  if (src.kind === 'json') x = src.expr;
  else {
    // Read presence from the document: a column cannot tell '0' text or unset from a default.
    const value = documentValue(src.column, context);
    if (value === undefined) return undefined;
    x = value;
  }
  // One `<> ALL` over the absent values evaluates x once per row (a CASE over jsonb_typeof read
  // it up to three times, each a walk of the document, and with a json document each a parse).
  const absentJson = type.kind === 'int64' ? ABSENT_INT64_JSON : ABSENT_JSON;
  const { json } = context.table.dialect;
  if (json.notAmong) return `COALESCE(${json.notAmong(x, absentJson)}, false)`;
  const absent = absentJson.map(json.literal).join(', ');
  return `COALESCE(${x} NOT IN (${absent}), false)`;
}

/** One comparison of a scalar value with a typed operand; undefined when it cannot push down. */
function leaf(
  src: Source,
  type: FieldType,
  comparator: string,
  operand: Operand,
  context: TranslationContext,
): string | undefined {
  const { params } = context;
  const { dialect } = context.table;
  const value = scalar(src, type, dialect);
  if (!value) return undefined;
  const v = value.expr;
  const op = SQL_OPERATOR[comparator]!;
  switch (operand.kind) {
    case 'string': {
      if (type.kind !== 'string' || !isStorableText(operand.value)) return undefined;
      if (comparator === ':') {
        const pattern = likePattern(`*${operand.value}*`, shifted(operand.literalStars), dialect);
        return dialect.matches(v, params.add(pattern, 'text'), false);
      }
      if (
        (comparator === '=' || comparator === '!=') &&
        hasWildcard(operand.value, operand.literalStars)
      ) {
        const pattern = likePattern(operand.value, operand.literalStars, dialect);
        return dialect.matches(v, params.add(pattern, 'text'), comparator !== '=');
      }
      return `${v} ${op} ${params.add(operand.value, 'text')}`;
    }
    case 'int64': {
      const cast =
        value.json || (src.kind === 'column' && src.column.storage === 'numeric')
          ? 'numeric'
          : 'bigint';
      return `${v} ${op} ${params.add(operand.value.toString(), cast)}`;
    }
    case 'double':
      return `${v} ${op} ${params.add(String(operand.value), 'float8')}`;
    case 'bool':
      return `${v} ${comparator === '!=' ? '<>' : '='} ${params.add(String(operand.value), 'boolean')}`;
    case 'enum': {
      if (type.kind !== 'enum') return undefined;
      if (src.kind === 'column' && src.column.storage === 'enum') {
        // A PostgreSQL enum compared with itself, not through ::text: its statistics apply (a
        // ::text comparison was estimated at 0.5% of the rows and planned as a scan and a sort,
        // 30 ms instead of an index walk). The label is cast by PostgreSQL from the column's
        // type, so the enum must declare every schema value (or the statement fails, 22P02).
        const want = params.add(operand.value, 'unknown');
        return comparator === '!='
          ? dialect.distinctFrom(src.column.name, want)
          : `${src.column.name} = ${want}`;
      }
      const want = value.json
        ? params.add(operand.value, 'text')
        : params.add(String(type.values.indexOf(operand.value)), 'integer');
      // Unset is NULL: it differs from every value.
      return comparator === '!=' ? dialect.distinctFrom(v, want) : `${v} = ${want}`;
    }
    case 'timestamp':
    case 'duration': {
      if (value.json) return undefined;
      const storage = src.kind === 'column' ? src.column.storage : undefined;
      if (storage === 'timestamptz' || storage === 'timestamp') {
        return microsecondComparison(v, storage, comparator, operand.value, params);
      }
      const want = params.add(nanosText(operand.value.seconds, operand.value.nanos), 'nanos');
      return comparator === '!=' ? `(${v} IS NULL OR ${v} <> ${want})` : `${v} ${op} ${want}`;
    }
    default:
      return undefined;
  }
}

/**
 * A timestamp comparison against a column that holds microseconds. A literal with nanoseconds
 * lies strictly between two microsecond values, so against its floor f: `< L` and `<= L` are
 * `<= f`, `> L` and `>= L` are `> f`, `= L` never holds and `!= L` always does.
 */
function microsecondComparison(
  v: string,
  storage: 'timestamptz' | 'timestamp',
  comparator: string,
  literal: { seconds: number; nanos: number },
  params: Parameters,
): string {
  const sub = literal.nanos % 1000;
  const floor = params.add(microsecondText(literal.seconds, literal.nanos - sub, storage), storage);
  if (sub === 0) {
    return comparator === '!='
      ? `(${v} IS NULL OR ${v} <> ${floor})`
      : `${v} ${SQL_OPERATOR[comparator]} ${floor}`;
  }
  switch (comparator) {
    case '<':
    case '<=':
      return `${v} <= ${floor}`;
    case '>':
    case '>=':
      return `${v} > ${floor}`;
    case '!=':
      return `(${v} IS NULL OR ${floor} IS NOT NULL)`;
    default:
      return `(${v} IS NOT NULL AND ${floor} IS NULL)`;
  }
}

/** A bare value: a substring of any searchable string field. */
function search(
  fields: readonly FieldRef[],
  text: string,
  literalStars: readonly number[],
  context: TranslationContext,
): Translation {
  if (!isStorableText(text)) return RESIDUAL;
  const stars = literalStars.map((i) => i + 1);
  const glob = `*${text}*`;
  const matchesEmpty = compileGlob(glob, stars)('');
  const parts: string[] = [];
  for (const field of fields) {
    const part = onPath(field.steps, context, (src) => {
      const { dialect } = context.table;
      const pattern = () => context.params.add(likePattern(glob, stars, dialect), 'text');
      if (field.type.kind === 'string') {
        const value = scalar(src, field.type, dialect);
        if (!value) return undefined;
        if (!matchesEmpty) return dialect.matches(value.expr, pattern(), false);
      }
      // The in-memory engine searches the raw value when it is a JSON string (so an int64 or a
      // timestamp held as text is searched too), and an unset field never matches.
      const raw = src.kind === 'column' ? documentValue(src.column, context) : src.expr;
      if (raw === undefined) return undefined;
      const isText = dialect.json.typeIs(raw, 'string');
      return matchesEmpty
        ? isText
        : `${isText} AND ${dialect.matches(dialect.json.text(raw), pattern(), false)}`;
    });
    if (!part.exact) return RESIDUAL;
    parts.push(part.sql);
  }
  return parts.length === 0
    ? { sql: 'FALSE', exact: true }
    : { sql: parts.map((p) => `(${p})`).join(' OR '), exact: true };
}

/** A regex-style term (full match of the field's canonical text). */
function regex(field: FieldRef, pattern: string, context: TranslationContext): Translation {
  const { params, regexEngine } = context;
  const type = field.type;
  if (type.kind === 'enum' || type.kind === 'bool') {
    // Few values: test each at plan time and push down the set that matches.
    const candidates = type.kind === 'enum' ? type.values : ['false', 'true'];
    const compiled = regexEngine.compile(pattern);
    let matching: string[];
    try {
      matching = candidates.filter((c) => compiled.fullMatch(c));
    } finally {
      compiled.dispose();
    }
    return onPath(field.steps, context, (src) => {
      const value = scalar(src, type, context.table.dialect);
      if (!value) return undefined;
      if (type.kind === 'bool') {
        if (matching.length === 2) return `${value.expr} IS NOT NULL`;
        if (matching.length === 0) return 'FALSE';
        return `${value.expr} = ${params.add(matching[0]!, 'boolean')}`;
      }
      const add = params.add.bind(params);
      return value.json
        ? context.table.dialect.inSet(value.expr, matching, 'text', add)
        : context.table.dialect.inSet(
            value.expr,
            matching.map((m) => String(candidates.indexOf(m))),
            'integer',
            add,
          );
    });
  }
  if (type.kind !== 'string' && type.kind !== 'int64') return RESIDUAL;
  const { dialect } = context.table;
  if (dialect.capabilities.regex === 're2') {
    const whole = wholeRegex(field, type.kind, pattern, context);
    if (whole) return whole;
  }
  // Only where the engine's regex means what RE2 means (docs/sql.md, "Dialects").
  const translated = dialect.capabilities.regex === 'subset' ? translateRegex(pattern) : undefined;
  if (dialect.capabilities.regex === 'none') {
    context.leftToResidual?.push({
      path: field.path,
      column: context.table.column(field.path)?.name ?? '',
      reason: `${dialect.name} has no regex operator that means what RE2 means: the pattern is decided in memory (narrowed by its literal prefix and runs)`,
    });
  }
  if (translated !== undefined) {
    return onPath(field.steps, context, (src) => {
      const value = scalar(src, type, context.table.dialect);
      if (!value) return undefined;
      const text = type.kind === 'int64' ? `(${value.expr})::text COLLATE "C"` : value.expr;
      return `${text} ~ ${params.add(translated, 'text')}`;
    });
  }
  // Not portable: narrow by the literal prefix (an index range) and the literal runs every match
  // contains (LIKE, which a trigram index answers), and let RE2 decide the rest.
  if (type.kind !== 'string') return RESIDUAL;
  const prefix = regexLiteralPrefix(pattern);
  const patterns = [
    ...(prefix === '' ? [] : [dialect.patternText([{ text: prefix }, 'any'])]),
    ...regexLiteralFragments(pattern)
      .filter((run) => !prefix.includes(run))
      .map((run) => dialect.patternText(['any', { text: run }, 'any'])),
  ];
  if (patterns.length === 0) return RESIDUAL;
  const narrowed = onPath(field.steps, context, (src) => {
    const value = scalar(src, type, context.table.dialect);
    if (!value) return undefined;
    return patterns
      .map((like) => dialect.matches(value.expr, params.add(like, 'text'), false))
      .join(' AND ');
  });
  return { sql: narrowed.sql, exact: false };
}

/**
 * A regex term pushed down whole where the engine's regex is RE2 (Spanner): the pattern anchored
 * as a full match, exact. Undefined (narrowed instead, and reported) when its program is larger
 * than the engine is sure to accept.
 */
function wholeRegex(
  field: FieldRef,
  kind: 'string' | 'int64',
  pattern: string,
  context: TranslationContext,
): Translation | undefined {
  const { dialect } = context.table;
  const limit = dialect.capabilities.regexProgramLimit ?? Number.POSITIVE_INFINITY;
  const size = programSize(pattern, context.regexEngine);
  if (size === undefined || size > limit) {
    context.leftToResidual?.push({
      path: field.path,
      column: context.table.column(field.path)?.name ?? '',
      reason: `RE2 program of ${size ?? '?'} instructions, over ${limit}: narrowed, decided in memory`,
    });
    return undefined;
  }
  const anchored = dialect.regexPattern!(pattern);
  return onPath(field.steps, context, (src) => {
    const value = scalar(src, field.type, dialect);
    if (!value) return undefined;
    return dialect.regexFullMatch!(value.expr, kind, context.params.add(anchored, 'text'));
  });
}

/** The pattern's RE2 program size, or undefined when the engine does not tell or refuses it. */
function programSize(pattern: string, engine: RegexEngine): number | undefined {
  try {
    const compiled = engine.compile(pattern);
    const size = compiled.programSize;
    compiled.dispose();
    return size;
  } catch {
    return undefined;
  }
}

/** A column's field read from the document instead (NULL when it or a parent is absent). */
function documentValue(column: SqlColumn, context: TranslationContext): string | undefined {
  const document = documentJsonb(context.table);
  if (document === undefined) return undefined;
  const steps = column.steps.map((name): PathStep => ({ kind: 'field', name }));
  return (jsonWalk(document, steps, context, []) as { expr: string }).expr;
}
