import { ListkitError } from '../errors.js';
import { compareStrings } from '../schema/compare-strings.js';
import { compareDurations, parseDuration } from '../schema/duration.js';
import type { FieldType, ResourceSchema } from '../schema/field-type.js';
import { parseInt64 } from '../schema/int64.js';
import { compareInstants, parseTimestampInto } from '../schema/timestamp.js';
import type { Comparator, FilterAst, FilterStyle } from './ast.js';
import type { CheckedNode, FieldRef, Operand, PathStep } from './checked.js';
import { checkFilter } from './checker.js';
import { compileGlob, hasWildcard } from './glob.js';
import { DEFAULT_FILTER_LIMITS } from './limits.js';
import { type ParseOptions, parseFilter } from './parser.js';
import { type PreparedFilter, PreparedFilterCache } from './prepared-cache.js';
import { printFilter } from './printer.js';
import { literalPatternTester } from './regex/literal-pattern.js';
import { re2jsEngine } from './regex/re2js-engine.js';
import { RegexCache } from './regex/regex-cache.js';
import {
  type CompiledRegex,
  type RegexEngine,
  RegexSyntaxError,
  RegexTooLargeError,
} from './regex/regex-engine.js';

/**
 * A filter ready to test resources.
 *
 * @example
 * ```ts
 * const filter: CompiledFilter<Rule> = compileFilter('labels.env = prod', schema);
 * rules.filter((rule) => filter.matches(rule));
 * filter.dispose();
 * ```
 */
export interface CompiledFilter<T = unknown> {
  /** The filter as given. */
  readonly source: string;
  readonly style: FilterStyle;
  readonly ast: FilterAst;
  readonly checked: CheckedNode;
  /** Canonical text (see {@link printFilter}): equal for filters that parse to the same tree. */
  readonly canonical: string;
  /** Whether the resource matches the filter. Never throws. */
  matches(resource: T): boolean;
  /** Releases compiled regular expressions now instead of when the filter is garbage-collected. */
  dispose(): void;
}

/**
 * Options of {@link compileFilter}.
 *
 * @example
 * ```ts
 * const cache = new RegexCache(re2jsEngine, { capacity: 100 });
 * compileFilter('name eq "web-.*"', schema, { regexCache: cache, limits: { maxTerms: 64 } });
 * ```
 */
export interface CompileOptions extends ParseOptions {
  /**
   * The RE2 engine for regex-style filters. Defaults to re2js everywhere; re2-wasm (Google's
   * C++ RE2) is available from `@listkit/query/re2-wasm` for trusted patterns — see
   * docs/regex-engines.md for why it is not the default.
   */
  regexEngine?: RegexEngine;
  /**
   * Where compiled regexes come from and go back to. By default one cache per engine is shared
   * by every filter of the process (1,000 patterns, 16 MiB); give your own to bound or drop the
   * regexes of one tenant or one test separately. Its engine is the one used, so `regexEngine`,
   * if also given, must be the same.
   */
  regexCache?: RegexCache;
}

type Predicate = (resource: unknown) => boolean;
type Getter = (resource: unknown) => unknown;

/** Returned by a getter when a message or map entry on the way to the field is absent. */
const MISSING = Symbol('missing');

const caches = new WeakMap<RegexEngine, RegexCache>();
const sharedCacheFor = (engine: RegexEngine) => {
  let cache = caches.get(engine);
  if (!cache) {
    cache = new RegexCache(engine);
    caches.set(engine, cache);
  }
  return cache;
};

/** The cache a compile uses: the one given, or the shared one of the engine. */
function cacheFor({ regexCache, regexEngine }: CompileOptions): RegexCache {
  if (!regexCache) return sharedCacheFor(regexEngine ?? re2jsEngine);
  if (regexEngine && regexEngine !== regexCache.engine) {
    throw new TypeError(
      `regexCache compiles with ${regexCache.engine.name} but regexEngine is ${regexEngine.name}`,
    );
  }
  return regexCache;
}

// A filter that is dropped without dispose() still gives its regexes back to the cache.
const releaser =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<() => void>((release) => release())
    : undefined;

/**
 * Parses, checks and compiles a filter into a predicate over resources of the schema.
 * Throws a {@link ListkitError} listing every problem when the filter is invalid.
 *
 * A filter given as text is parsed, checked and printed once per (text, schema object, parse
 * limits) and then taken from a bounded cache, so repeated calls with the same filter (a page
 * walk) skip the parser. The `ast` and `checked` trees of the result are therefore frozen and
 * may be shared with other calls; a schema must not be changed after its first compile.
 *
 * @example
 * ```ts
 * const filter = compileFilter('labels.env = "prod" AND portRange:80', schema);
 * rules.filter((r) => filter.matches(r));
 * ```
 */
export function compileFilter<T = unknown>(
  filter: string | FilterAst,
  schema: ResourceSchema,
  options: CompileOptions = {},
): CompiledFilter<T> {
  const { ast, checked, canonical } =
    typeof filter === 'string'
      ? preparedFilters.get(filter, schema, options.limits)
      : prepareFilter(filter, schema);
  const cache = cacheFor(options);
  const acquired: CompiledRegex[] = [];
  const programLimit = options.limits?.maxProgramSize ?? DEFAULT_FILTER_LIMITS.maxProgramSize;
  let predicate: Predicate;
  try {
    predicate = compileNode(checked, {
      source: ast.source,
      cache,
      acquired,
      programLimit,
      programBudget: programLimit,
    });
  } catch (error) {
    for (const regex of acquired) cache.release(regex);
    throw error;
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const regex of acquired) cache.release(regex);
  };
  const compiled: CompiledFilter<T> = {
    source: ast.source,
    style: ast.style,
    ast,
    checked,
    canonical,
    matches: matchesObject.bind(undefined, predicate),
    dispose() {
      releaser?.unregister(compiled);
      release();
    },
  };
  if (acquired.length > 0) releaser?.register(compiled, release, compiled);
  return compiled;
}

/**
 * `matches`, bound to one filter's predicate. A bound function rather than a closure: every
 * closure of one literal shares its call sites' feedback, so a closure's call of `predicate`
 * would see the predicates of every filter of the process and inline none; where a caller's call
 * of `matches` is inlined, V8 sees through the binding to this filter's predicate as a constant
 * (issue 38, raced against the closure in one process: run.mjs §2's `NOT` row 1.76-1.78x of its
 * hand-written predicate -> 1.57-1.62x, the first `AND` row 2.58-2.77x -> 2.52-2.55x).
 */
function matchesObject(predicate: Predicate, resource: unknown): boolean {
  return typeof resource === 'object' && resource !== null && predicate(resource);
}

function prepareFilter(ast: FilterAst, schema: ResourceSchema): PreparedFilter {
  const result = checkFilter(ast, schema);
  if (!result.ok) throw new ListkitError(result.problems, ast.source);
  return { ast, checked: result.checked, canonical: printFilter(ast) };
}

/**
 * Filters given as text are parsed, checked and printed once per (text, schema, parse limits):
 * a page walk sends the same filter with every page. Bounded by count and bytes; what it keeps
 * is frozen. Exported for tests only.
 */
export const preparedFilters = new PreparedFilterCache((text, schema, limits) =>
  prepareFilter(parseFilter(text, limits ? { limits } : {}), schema),
);

interface Context {
  source: string;
  cache: RegexCache;
  acquired: CompiledRegex[];
  /** `maxProgramSize`, and what is left of it for this filter's remaining patterns. */
  programLimit: number;
  programBudget: number;
}

function compileNode(node: CheckedNode, context: Context): Predicate {
  switch (node.type) {
    case 'all':
      return () => true;
    case 'and': {
      const fused = onOneTopLevelField(node.operands, context, allOf);
      if (fused) return fused;
      const parts = node.operands.map((n) => compileNode(n, context));
      if (parts.length === 2) {
        const [a, b] = parts as [Predicate, Predicate];
        return (r) => a(r) && b(r);
      }
      return (r) => {
        for (const p of parts) if (!p(r)) return false;
        return true;
      };
    }
    case 'or': {
      const fused = onOneTopLevelField(node.operands, context, anyOf);
      if (fused) return fused;
      const parts = node.operands.map((n) => compileNode(n, context));
      if (parts.length === 2) {
        const [a, b] = parts as [Predicate, Predicate];
        return (r) => a(r) || b(r);
      }
      return (r) => {
        for (const p of parts) if (p(r)) return true;
        return false;
      };
    }
    case 'not': {
      const inner = compileNode(node.operand, context);
      return (r) => !inner(r);
    }
    case 'compare':
      return onField(
        node.field,
        exactTest(node.comparator, node.operand) ??
          leafTest(node.field.type, node.comparator, node.operand),
      );
    case 'search': {
      const stars = node.literalStars.map((i) => i + 1);
      const contains = compileGlob(`*${node.text}*`, stars);
      const tests = node.fields.map((f) => onField(f, (v) => typeof v === 'string' && contains(v)));
      return (r) => tests.some((t) => t(r));
    }
    case 'call': {
      const args = node.args.map((a): Getter => {
        if (a.kind === 'literal') return () => a.value;
        const get = getter(a.field.steps);
        return (r) => {
          const v = get(r);
          return v === MISSING ? undefined : v;
        };
      });
      const fn = node.fn;
      return (r) => {
        try {
          return fn.evaluate(...args.map((a) => a(r))) === true;
        } catch {
          return false;
        }
      };
    }
    case 'regex': {
      if (topLevelFieldOf(node) !== undefined && node.field.type.kind === 'string') {
        return regexOnStringField(node, context);
      }
      const eq = onField(node.field, regexValueTest(node, context));
      return node.operator === 'eq' ? eq : (r) => !eq(r);
    }
  }
}

/**
 * The common regex filter, a pattern on a top-level string field (`name eq "web-.*"`), as one
 * closure rather than three (field, text, pattern): each closure's call sites are shared by
 * every filter of the process, so V8 may not inline them. 2-4% of a match in run.mjs §3's
 * setting (issue 38; raced against the build before in one process: lower in 7 readings of 8).
 */
function regexOnStringField(node: LeafNode & { type: 'regex' }, context: Context): Predicate {
  const name = topLevelFieldOf(node)!;
  const full = regexTester(node.pattern, node.patternSpan, context);
  const unset = full(''); // proto3: an unset string is ''
  const eq = node.operator === 'eq';
  return (r) => {
    const v = (r as Record<string, unknown>)[name];
    return (typeof v === 'string' ? full(v) : v === undefined && unset) === eq;
  };
}

type ValueTest = (value: unknown) => boolean;
type LeafNode = Extract<CheckedNode, { type: 'compare' | 'regex' }>;

/** Whether a pattern matches a field value, as its type writes it in text. */
function regexValueTest(node: LeafNode & { type: 'regex' }, context: Context): ValueTest {
  const full = regexTester(node.pattern, node.patternSpan, context);
  const text = canonicalText(node.field.type);
  return (v) => {
    const t = text(v);
    return t !== undefined && full(t);
  };
}

const allOf = (tests: ValueTest[]): ValueTest => {
  if (tests.length === 2) {
    const [a, b] = tests as [ValueTest, ValueTest];
    return (v) => a(v) && b(v);
  }
  return (v) => tests.every((t) => t(v));
};

const anyOf = (tests: ValueTest[]): ValueTest => {
  if (tests.length === 2) {
    const [a, b] = tests as [ValueTest, ValueTest];
    return (v) => a(v) || b(v);
  }
  return (v) => tests.some((t) => t(v));
};

/**
 * `name = web-* OR name = api-*`, `x > 1 AND x < 9`: when every operand of an AND or OR compares
 * the same top-level field, the field is read once per resource, not once per operand. Over
 * resources of many shapes, `r[name]` with the name in a variable is a lookup in V8's property
 * tables (no inline cache serves it as it serves `r.name` written in code): in a hand-written
 * closure over run.mjs's rules, `name = web-* OR name = api-*` took 112 ns per rule with one read
 * and 148 ns with two. Undefined when the operands are not all such comparisons.
 */
function onOneTopLevelField(
  operands: CheckedNode[],
  context: Context,
  combine: (tests: ValueTest[]) => ValueTest,
): Predicate | undefined {
  const name = topLevelFieldOf(operands[0]);
  if (name === undefined || !operands.every((n) => topLevelFieldOf(n) === name)) return undefined;
  const tests = (operands as LeafNode[]).map((n): ValueTest => {
    if (n.type === 'compare') return leafTest(n.field.type, n.comparator, n.operand);
    const eq = regexValueTest(n, context);
    return n.operator === 'eq' ? eq : (v) => !eq(v);
  });
  const test = combine(tests);
  return (r) => test((r as Record<string, unknown>)[name]);
}

/** The field a comparison or regex reads, when it is a top-level field; else undefined. */
function topLevelFieldOf(node: CheckedNode | undefined): string | undefined {
  if (node?.type !== 'compare' && node?.type !== 'regex') return undefined;
  const [step, ...rest] = node.field.steps;
  return step?.kind === 'field' && rest.length === 0 ? step.name : undefined;
}

/**
 * Applies a test to the field's value, or to each element when the path crosses a list. An
 * {@link Exact} test on a top-level field or a two-step path is written into the closure that
 * reads the field (no call per record: each closure literal's call sites are shared by every
 * filter of the process, so V8 often cannot inline them; issue 38).
 */
function onField(field: FieldRef, exactOrTest: Exact | ValueTest): Predicate {
  const first = field.steps[0];
  if (field.steps.length === 1 && first?.kind === 'field') {
    // The common case, one call shorter: a top-level field is never MISSING.
    const name = first.name;
    if (typeof exactOrTest === 'function') {
      const test = exactOrTest;
      return (r) => test((r as Record<string, unknown>)[name]);
    }
    const { value, equal } = exactOrTest;
    return equal
      ? (r) => (r as Record<string, unknown>)[name] === value
      : (r) => (r as Record<string, unknown>)[name] !== value;
  }
  const second = field.steps[1];
  if (field.steps.length === 2 && first?.kind === 'field' && second?.kind !== 'each') {
    return nestedField(first.name, second!, exactOrTest);
  }
  const test = typeof exactOrTest === 'function' ? exactOrTest : testOf(exactOrTest);
  const get = getter(field.steps);
  if (!field.steps.some((s) => s.kind === 'each')) {
    return (r) => {
      const v = get(r);
      return v !== MISSING && test(v);
    };
  }
  return (r) => {
    const values = get(r);
    return values !== MISSING && (values as unknown[]).some(test);
  };
}

/**
 * A test on `a.b` (a message's field) or `a.key` (a map's entry), the common nested paths. A map
 * entry must be the map's own (`labels.constructor` is not inherited from Object.prototype);
 * that check runs only after the test accepts the value, because an absent or inherited entry
 * fails either way: the test of a missing entry is false (see {@link getter}'s MISSING), and
 * most records fail the test, so most skip `Object.hasOwn` (a call V8 does not inline).
 */
function nestedField(
  name: string,
  step: Exclude<PathStep, { kind: 'each' }>,
  exactOrTest: Exact | ValueTest,
): Predicate {
  const inner = step.name;
  const own = step.kind === 'key';
  if (typeof exactOrTest !== 'function') {
    const { value, equal } = exactOrTest;
    return (r) => {
      const m = (r as Record<string, unknown>)[name];
      return isObject(m) && (m[inner] === value) === equal && (!own || Object.hasOwn(m, inner));
    };
  }
  const test = exactOrTest;
  if (!own) {
    return (r) => {
      const m = (r as Record<string, unknown>)[name];
      return isObject(m) && test(m[inner]);
    };
  }
  return (r) => {
    const m = (r as Record<string, unknown>)[name];
    return isObject(m) && test(m[inner]) && Object.hasOwn(m, inner);
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Reads the value at a path. An absent message or map entry on the way gives MISSING; an
 * absent last field gives undefined (the type's default). Paths with `each` steps give the
 * flat list of values reached through every element.
 */
function getter(steps: PathStep[]): Getter {
  if (steps.some((s) => s.kind === 'each')) return collector(steps);
  if (steps.length === 1 && steps[0]!.kind === 'field') {
    const name = steps[0]!.name;
    return (r) => (r as Record<string, unknown>)[name];
  }
  if (steps.length === 2 && steps[0]!.kind === 'field') {
    const [a, b] = [steps[0]!.name, steps[1]!];
    const bName = b.kind === 'each' ? '' : b.name;
    return (r) => {
      const m = (r as Record<string, unknown>)[a];
      if (!isObject(m)) return MISSING;
      return b.kind === 'key' && !Object.hasOwn(m, bName) ? MISSING : m[bName];
    };
  }
  return (r) => {
    let value: unknown = r;
    for (const step of steps) {
      if (!isObject(value) || step.kind === 'each') return MISSING;
      if (step.kind === 'key' && !Object.hasOwn(value, step.name)) return MISSING;
      value = value[step.name];
    }
    return value;
  };
}

function collector(steps: PathStep[]): Getter {
  return (r) => {
    let values: unknown[] = [r];
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      const last = i === steps.length - 1;
      const next: unknown[] = [];
      for (const v of values) {
        if (step.kind === 'each') {
          if (Array.isArray(v)) next.push(...v);
        } else if (isObject(v) && (step.kind === 'field' || Object.hasOwn(v, step.name))) {
          const child = v[step.name];
          if (last || child !== undefined) next.push(child);
        }
      }
      values = next;
    }
    return values;
  };
}

/**
 * Proto3 presence: unset, empty and default scalar values are not present. The text "0" is a
 * value like any other, except in an int64 field, whose JSON form writes its default 0 as "0"
 * ({@link isPresentInt64}).
 */
function isPresent(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

/** Presence in an int64 field: its default 0 may be written as the JSON string "0". */
function isPresentInt64(v: unknown): boolean {
  return v !== '0' && isPresent(v);
}

/** The test of a comparison result for a comparator, chosen once at compile time. */
function orderTest(comparator: Comparator): (c: number) => boolean {
  switch (comparator) {
    case '<':
      return (c) => c < 0;
    case '<=':
      return (c) => c <= 0;
    case '>':
      return (c) => c > 0;
    case '>=':
      return (c) => c >= 0;
    case '!=':
      return (c) => c !== 0;
    default:
      return (c) => c === 0;
  }
}

/**
 * A leaf test that is a strict equality of the value with a constant (`equal`), or its negation:
 * `(v === value) === equal` for every value v, unset (undefined) included.
 */
interface Exact {
  value: unknown;
  equal: boolean;
}

/**
 * The comparisons whose test is an {@link Exact} one, the rule for them in one place: an enum
 * (`=`, `:` or `!=`: an unset enum equals no value); a bool, whose unset value is false (`x =
 * true` is `v === true`, `x = false` is `v !== true`); a string under `=` or `!=` without a
 * wildcard (compared with its text; an unset or non-string value reads as '', so a non-empty
 * text is equal to exactly the strings it spells). Undefined for every other comparison.
 */
function exactTest(comparator: Comparator, operand: Operand): Exact | undefined {
  switch (operand.kind) {
    case 'enum':
      return { value: operand.value, equal: comparator !== '!=' };
    case 'bool':
      return { value: true, equal: (comparator !== '!=') === operand.value };
    case 'string': {
      const { value, literalStars } = operand;
      if (comparator !== '=' && comparator !== '!=') return undefined;
      if (value === '' || hasWildcard(value, literalStars)) return undefined;
      return { value, equal: comparator === '=' };
    }
    default:
      return undefined;
  }
}

const testOf = ({ value, equal }: Exact): ValueTest =>
  equal ? (v) => v === value : (v) => v !== value;

/** Builds the test of one leaf value against an operand. */
function leafTest(
  type: FieldType,
  comparator: Comparator,
  operand: Operand,
): (v: unknown) => boolean {
  switch (operand.kind) {
    case 'presence':
      return type.kind === 'int64' ? isPresentInt64 : isPresent;
    case 'key': {
      const key = operand.value;
      return (v) => isObject(v) && Object.hasOwn(v, key);
    }
    case 'element': {
      const element = type.kind === 'repeated' ? type.element : type;
      // One rule for a string under `:`, an element's as a field's: it contains the text.
      const test = leafTest(element, element.kind === 'string' ? ':' : '=', operand.element);
      return (v) => Array.isArray(v) && v.some(test);
    }
    case 'string': {
      if (comparator === ':') {
        const contains = compileGlob(
          `*${operand.value}*`,
          operand.literalStars.map((i) => i + 1),
        );
        return (v) => contains(typeof v === 'string' ? v : '');
      }
      if (comparator === '=' || comparator === '!=') {
        const exact = exactTest(comparator, operand);
        if (exact) return testOf(exact);
        const equals = compileGlob(operand.value, operand.literalStars);
        const want = comparator === '=';
        return (v) => equals(typeof v === 'string' ? v : '') === want;
      }
      const value = operand.value;
      const accept = orderTest(comparator);
      return (v) => accept(compareStrings(typeof v === 'string' ? v : '', value));
    }
    case 'int64': {
      const value = operand.value;
      const small = Number(value);
      const safe = Number.isSafeInteger(small);
      const accept = orderTest(comparator);
      return (v) => {
        if (v === undefined) return accept(value > 0n ? -1 : value < 0n ? 1 : 0);
        // Up to 15 digits a JS number is exact; beyond, compare as bigint.
        if (safe && typeof v === 'string' && v.length < 16) {
          const n = Number(v);
          if (Number.isInteger(n)) return accept(n - small);
        }
        const n = parseInt64(v);
        return n !== undefined && accept(n < value ? -1 : n > value ? 1 : 0);
      };
    }
    case 'double': {
      const value = operand.value;
      const accept = orderTest(comparator);
      return (v) => {
        const n = v === undefined ? 0 : v;
        return typeof n === 'number' && accept(n - value);
      };
    }
    case 'bool':
    case 'enum':
      return testOf(exactTest(comparator, operand)!);
    case 'timestamp': {
      const value = operand.value;
      const accept = orderTest(comparator);
      const unset = comparator === '!=';
      const scratch = { seconds: 0, nanos: 0 }; // reused: evaluation is synchronous
      return (v) =>
        typeof v === 'string' && parseTimestampInto(v, scratch)
          ? accept(compareInstants(scratch, value))
          : unset;
    }
    case 'duration': {
      const value = operand.value;
      const accept = orderTest(comparator);
      return (v) => {
        const d = typeof v === 'string' ? parseDuration(v) : undefined;
        return d ? accept(compareDurations(d, value)) : comparator === '!=';
      };
    }
  }
}

/** The text a regex-style pattern is matched against, by field type; undefined never matches. */
function canonicalText(type: FieldType): (v: unknown) => string | undefined {
  switch (type.kind) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : v === undefined ? '' : undefined);
    case 'int64':
      return (v) => {
        if (v === undefined) return '0';
        const n = parseInt64(v);
        return n === undefined ? undefined : n.toString();
      };
    case 'double':
      return (v) => (v === undefined ? '0' : typeof v === 'number' ? String(v) : undefined);
    case 'bool':
      return (v) => (v === true ? 'true' : 'false');
    default:
      return (v) => (typeof v === 'string' ? v : undefined);
  }
}

function regexTester(pattern: string, span: { start: number; end: number }, context: Context) {
  const literal = literalPatternTester(pattern);
  if (literal) return literal;
  let regex: CompiledRegex;
  try {
    regex = context.cache.acquire(pattern, context.programBudget);
  } catch (error) {
    if (error instanceof RegexTooLargeError) throw tooLarge(pattern, span, context, error);
    if (!(error instanceof RegexSyntaxError)) throw error;
    throw ListkitError.of(
      'filter',
      'invalid_regex',
      `invalid RE2 pattern: ${error.message}`,
      span,
      context.source,
    );
  }
  context.acquired.push(regex);
  context.programBudget -= regex.programSize ?? 0;
  return (s: string) => regex.fullMatch(s);
}

/** The longest prefix of a pattern an error message quotes. */
const QUOTED_PATTERN_CHARS = 60;

function tooLarge(
  pattern: string,
  span: { start: number; end: number },
  context: Context,
  error: RegexTooLargeError,
): ListkitError {
  const quoted =
    pattern.length > QUOTED_PATTERN_CHARS
      ? `${pattern.slice(0, QUOTED_PATTERN_CHARS)}…" (${pattern.length} characters)`
      : `${pattern}"`;
  const room =
    error.limit === context.programLimit
      ? `more than the limit of ${context.programLimit}`
      : `more than the ${error.limit} that the filter's other patterns leave of the limit of ${context.programLimit}`;
  return ListkitError.of(
    'filter',
    'regex_too_large',
    `RE2 pattern "${quoted} compiles to a program of ${error.atLeast ? 'at least ' : ''}${error.programSize} instructions, ${room}`,
    span,
    context.source,
  );
}
