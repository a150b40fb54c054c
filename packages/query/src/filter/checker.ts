import { type ListkitErrorCode, type Problem, problem, type Span } from '../errors.js';
import { parseDuration } from '../schema/duration.js';
import { fieldNameTable } from '../schema/field-names.js';
import {
  type FieldType,
  lookupPath,
  type ResourceSchema,
  searchablePaths,
} from '../schema/field-type.js';
import { parseInt64 } from '../schema/int64.js';
import { suggest } from '../schema/suggest.js';
import { parseTimestamp } from '../schema/timestamp.js';
import type {
  ArgNode,
  CallNode,
  Comparator,
  ExpressionNode,
  FilterAst,
  MemberNode,
  RestrictionNode,
  Segment,
} from './ast.js';
import type { CallArg, CheckedNode, FieldRef, Operand, PathStep } from './checked.js';

/**
 * The result of {@link checkFilter}: the checked tree, or the problems that prevent it.
 *
 * @example
 * ```ts
 * const result: CheckResult = checkFilter(parseFilter('nmae = x'), schema);
 * if (!result.ok) console.log(result.problems[0].message); // unknown field 'nmae'; did you mean 'name'?
 * ```
 */
export type CheckResult =
  | { ok: true; checked: CheckedNode; problems: [] }
  | { ok: false; problems: [Problem, ...Problem[]] };

const ORDERED: ReadonlySet<Comparator> = new Set(['<', '<=', '>', '>=']);

/** Stops checking one restriction; the problem has already been recorded. */
class Skip extends Error {}

/**
 * Checks a parsed filter against a resource schema. Problems come back as data, each with its
 * span; nothing is thrown for an invalid filter.
 *
 * @example
 * ```ts
 * const result = checkFilter(parseFilter('nmae = "x"'), schema);
 * if (!result.ok) console.log(result.problems[0].message); // unknown field 'nmae'; did you mean 'name'?
 * ```
 */
export function checkFilter(ast: FilterAst, schema: ResourceSchema): CheckResult {
  const checker = new Checker(ast.source, schema);
  let checked: CheckedNode = { type: 'all' };
  if (ast.style === 'aip-160') checked = checker.expression(ast.expression);
  else if (ast.style === 'regex') {
    const terms = ast.terms.map((term) => checker.guard(() => checker.regexTerm(term)));
    checked =
      terms.length === 1
        ? terms[0]!
        : { type: 'and', operands: terms, span: { start: 0, end: ast.source.length } };
  }
  const [first, ...rest] = checker.problems;
  return first ? { ok: false, problems: [first, ...rest] } : { ok: true, checked, problems: [] };
}

class Checker {
  readonly problems: Problem[] = [];
  private readonly written = new WeakMap<FieldRef, string>();
  constructor(
    private readonly source: string,
    private readonly schema: ResourceSchema,
  ) {}

  private report(code: ListkitErrorCode, message: string, span: Span): never {
    this.problems.push(problem('filter', code, message, span, this.source));
    throw new Skip();
  }

  /** Runs one restriction's check; a problem there does not stop the others being checked. */
  guard(check: () => CheckedNode): CheckedNode {
    try {
      return check();
    } catch (e) {
      if (e instanceof Skip) return { type: 'all' };
      throw e;
    }
  }

  expression(node: ExpressionNode): CheckedNode {
    switch (node.type) {
      case 'and':
      case 'sequence':
        return {
          type: 'and',
          operands: node.operands.map((n) => this.expression(n)),
          span: node.span,
        };
      case 'or':
        return {
          type: 'or',
          operands: node.operands.map((n) => this.expression(n)),
          span: node.span,
        };
      case 'not':
        return { type: 'not', operand: this.expression(node.operand), span: node.span };
      case 'composite':
        return this.expression(node.expression);
      case 'restriction':
        return this.guard(() => this.restriction(node));
    }
  }

  private restriction(node: RestrictionNode): CheckedNode {
    const { comparable, comparator, arg } = node;
    if (comparable.type === 'call') {
      if (comparator) {
        this.report(
          'unsupported_operator',
          'a function result cannot be compared; use the call itself as a condition',
          node.comparatorSpan ?? node.span,
        );
      }
      return this.call(comparable);
    }
    if (!comparator || !arg) return this.search(comparable, node.span);
    const field = this.field(comparable, comparator === ':');
    const operand = this.operand(field, comparator, arg);
    return { type: 'compare', field, comparator, operand, span: node.span };
  }

  /** A bare value: searched as text in every searchable field. */
  private search(member: MemberNode, span: Span): CheckedNode {
    const paths = searchablePaths(this.schema);
    if (paths.length === 0) {
      this.report(
        'no_text_fields',
        `'${this.sourceOf(span)}' has no field; this resource declares no text fields to search, so write field = value`,
        span,
      );
    }
    // The schema's own (JSON) paths: they need no spelling resolved.
    const fields = paths.map(
      (path): FieldRef => ({
        path: path.join('.'),
        steps: path.map((name) => ({ kind: 'field', name })),
        type: lookupPath(this.schema, path)!,
        span,
      }),
    );
    const only = member.segments.length === 1 ? member.segments[0]! : undefined;
    return {
      type: 'search',
      fields,
      text: this.literalText(member),
      literalStars: only?.kind === 'string' || only?.kind === 'text' ? only.literalStars : [],
      span,
    };
  }

  private call(node: CallNode): CheckedNode {
    const name = node.name.map((s) => s.value).join('.');
    const nameSpan = { start: node.span.start, end: node.name[node.name.length - 1]!.span.end };
    const functions = this.schema.functions ?? {};
    const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!fn) {
      const keyword = node.name.length === 1 && node.name[0]!.kind === 'keyword';
      const hint = keyword
        ? `; ${name} is an operator only when followed by whitespace, as in '${name} (…)'`
        : didYouMean(name, Object.keys(functions));
      this.report('unknown_function', `unknown function '${name}'${hint}`, nameSpan);
    }
    const [min, max] = typeof fn.arity === 'number' ? [fn.arity, fn.arity] : fn.arity;
    if (node.args.length < min || node.args.length > max) {
      const expected = min === max ? `${min}` : `${min} to ${max}`;
      this.report(
        'wrong_arity',
        `${name}() takes ${expected} argument${max === 1 ? '' : 's'} but was given ${node.args.length}`,
        node.span,
      );
    }
    const args = node.args.map((arg): CallArg => {
      if (arg.type !== 'member') {
        this.report(
          'unsupported_argument',
          'function arguments must be fields or literals',
          arg.span,
        );
      }
      const head = arg.segments[0]!;
      const names = fieldNameTable(this.schema.fields, this.schema.fieldNames);
      if (head.kind === 'text' && names.jsonName(head.value) !== undefined) {
        return { kind: 'field', field: this.field(arg, false) };
      }
      if (arg.segments.length === 1 && head.kind === 'number')
        return { kind: 'literal', value: Number(head.value) };
      return { kind: 'literal', value: this.literalText(arg) };
    });
    return { type: 'call', name, fn, args, span: node.span };
  }

  /** Resolves the left side of a comparison to a schema field. */
  private field(member: MemberNode, allowRepeated: boolean): FieldRef {
    const literal = member.segments.find(
      (s) => s.kind === 'string' || s.kind === 'timestamp' || s.kind === 'duration',
    );
    const head = member.segments[0]!;
    if (literal || head.kind === 'number') {
      this.report(
        'field_required',
        'the left side of a comparison must be a field name, not a literal',
        member.span,
      );
    }
    const segments = member.segments.map((s) => ({ name: s.value, span: s.span }));
    return this.resolve(segments, member.span, allowRepeated);
  }

  private resolve(
    segments: { name: string; span: Span }[],
    span: Span,
    allowRepeated: boolean,
  ): FieldRef {
    const steps: PathStep[] = [];
    let type: FieldType = { kind: 'message', fields: this.schema.fields };
    // `path` is the JSON path (what resources, SQL and tokens use); `written` the caller's text.
    let path = '';
    let written = '';
    for (const segment of segments) {
      if (type.kind === 'repeated') {
        if (!allowRepeated || /^\d+$/.test(segment.name)) {
          this.report(
            'traversal_through_repeated',
            `'${written}' is a repeated field: it cannot be indexed or traversed with '.', except to test elements with ':' (as in ${written}.${segment.name}:value)`,
            segment.span,
          );
        }
        steps.push({ kind: 'each' });
        type = type.element;
      }
      let name = segment.name;
      if (type.kind === 'message') {
        const names = fieldNameTable(type.fields, this.schema.fieldNames);
        const jsonName = names.jsonName(segment.name);
        if (jsonName === undefined) {
          const where = written ? `'${written}' has no field` : 'unknown field';
          const guess = names.suggestion(segment.name);
          this.report(
            'unknown_field',
            `${where} '${segment.name}'${guess ? `; did you mean '${guess}'?` : ''}`,
            segment.span,
          );
        }
        name = jsonName;
        steps.push({ kind: 'field', name });
        type = type.fields[name]!;
      } else if (type.kind === 'map') {
        steps.push({ kind: 'key', name });
        type = type.value;
      } else {
        this.report(
          'unknown_field',
          `'${written}' is a ${type.kind} and has no field '${segment.name}'`,
          segment.span,
        );
      }
      path = path ? `${path}.${name}` : name;
      written = written ? `${written}.${segment.name}` : segment.name;
    }
    const field = { path, steps, type, span };
    this.written.set(field, written);
    return field;
  }

  /** A field's path as the caller wrote it, for messages. */
  private nameOf(field: FieldRef): string {
    return this.written.get(field) ?? field.path;
  }

  /** Converts the right side of a comparison to an operand of the field's type. */
  private operand(field: FieldRef, comparator: Comparator, arg: ArgNode): Operand {
    if (arg.type !== 'member') {
      const what = arg.type === 'call' ? 'a function call' : 'a parenthesized expression';
      this.report(
        'unsupported_argument',
        `the right side of a comparison must be a literal, not ${what}`,
        arg.span,
      );
    }
    const text = this.literalText(arg);
    const only = arg.segments.length === 1 ? arg.segments[0]! : undefined;
    const unquotedStar = only?.kind === 'text' && only.value === '*';
    const type = field.type;
    if (comparator === ':' && unquotedStar) return { kind: 'presence' };
    if (type.kind === 'repeated' || type.kind === 'map' || type.kind === 'message') {
      if (comparator !== ':') {
        const hint =
          type.kind === 'repeated'
            ? `use ':' to test whether it contains a value`
            : type.kind === 'map'
              ? `use ':' to test a key, or compare a value with ${this.nameOf(field)}.key`
              : `compare one of its fields, or use ':*' to test presence`;
        this.report(
          'unsupported_operator',
          `'${this.nameOf(field)}' is a ${type.kind}: ${hint}`,
          arg.span,
        );
      }
      if (type.kind === 'map') return { kind: 'key', value: text };
      if (type.kind === 'repeated') {
        return { kind: 'element', element: this.scalar(field, type.element, '=', arg, text) };
      }
      this.report(
        'unsupported_operator',
        `'${this.nameOf(field)}' is a message: use ':*' to test presence`,
        arg.span,
      );
    }
    return this.scalar(field, type, comparator, arg, text);
  }

  private scalar(
    field: FieldRef,
    type: FieldType,
    comparator: Comparator,
    arg: MemberNode,
    text: string,
  ): Operand {
    const span = arg.span;
    if (ORDERED.has(comparator) && (type.kind === 'bool' || type.kind === 'enum')) {
      this.report(
        'unsupported_operator',
        `'${comparator}' does not apply to ${type.kind === 'bool' ? 'a bool' : 'an enum'} field '${this.nameOf(field)}'; use = or !=`,
        span,
      );
    }
    const invalid = (what: string): never =>
      this.report(
        'invalid_value',
        `'${text}' is not ${what}, as '${this.nameOf(field)}' requires`,
        span,
      );
    switch (type.kind) {
      case 'string': {
        const only = arg.segments.length === 1 ? arg.segments[0]! : undefined;
        return { kind: 'string', value: text, literalStars: only ? only.literalStars : [] };
      }
      case 'int64': {
        const value = parseInt64(text);
        return value === undefined ? invalid('a 64-bit integer') : { kind: 'int64', value };
      }
      case 'double': {
        const value = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)
          ? Number(text)
          : Number.NaN;
        return Number.isFinite(value) ? { kind: 'double', value } : invalid('a number');
      }
      case 'bool':
        return text === 'true' || text === 'false'
          ? { kind: 'bool', value: text === 'true' }
          : invalid('true or false');
      case 'enum': {
        if (!type.values.includes(text)) {
          this.report(
            'unknown_enum_value',
            `'${text}' is not a value of '${this.nameOf(field)}'${didYouMean(text, type.values) || ';'} values are ${type.values.join(', ')}`,
            span,
          );
        }
        return { kind: 'enum', value: text };
      }
      case 'timestamp': {
        const value = parseTimestamp(text);
        if (!value) {
          this.report(
            'invalid_timestamp',
            `'${text}' is not an RFC 3339 timestamp such as 2012-04-21T11:30:00-04:00`,
            span,
          );
        }
        return { kind: 'timestamp', value };
      }
      case 'duration': {
        const value = parseDuration(text);
        if (!value)
          this.report('invalid_duration', `'${text}' is not a duration such as 20s or 1.5s`, span);
        return { kind: 'duration', value };
      }
      default:
        return this.report(
          'unsupported_operator',
          `'${this.nameOf(field)}' cannot be compared here`,
          span,
        );
    }
  }

  regexTerm(term: import('./ast.js').RegexTermNode): CheckedNode {
    const field = this.field(term.field, false);
    const leaf = field.type.kind === 'repeated' ? field.type.element : field.type;
    if (leaf.kind === 'message' || leaf.kind === 'map' || leaf.kind === 'repeated') {
      this.report(
        'unsupported_operator',
        `'${this.nameOf(field)}' is a ${leaf.kind}; regex-style filters compare string, number, bool and enum fields`,
        term.field.span,
      );
    }
    if (field.type.kind === 'repeated') {
      field.steps.push({ kind: 'each' });
      field.type = leaf;
    }
    return {
      type: 'regex',
      field,
      operator: term.operator,
      pattern: term.pattern.value,
      patternSpan: term.pattern.span,
      span: term.span,
    };
  }

  /** The literal a right-hand member stands for: `com.google` from `package=com.google`. */
  private literalText(member: MemberNode): string {
    return member.segments.map((s: Segment) => s.value).join('.');
  }

  private sourceOf(span: Span): string {
    return this.source.slice(span.start, span.end);
  }
}

function didYouMean(name: string, candidates: readonly string[]): string {
  const best = suggest(name, candidates);
  return best ? `; did you mean '${best}'?` : '';
}
