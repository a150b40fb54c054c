import { ListkitError, type Span } from '../errors.js';

/**
 * One step of a field path: a field name, a map key, or `*` (every field of a message, every
 * element of a repeated field, every value of a map).
 *
 * @example
 * ```ts
 * const step: MaskSegment = { name: 'env', star: false, span: { start: 7, end: 10 } };
 * ```
 */
export interface MaskSegment {
  /** The name or key as written (backticks removed); `*` for a star. */
  name: string;
  star: boolean;
  span: Span;
}

/**
 * One selection of a field mask: a path and, in the `fields` syntax, the sub-selections in
 * parentheses after it (`items(name,labels)`), which continue the path.
 *
 * @example
 * ```ts
 * const [items] = parseFieldMask('items(name,labels)');
 * items.path.map((s) => s.name); // ['items']
 * items.children?.length; // 2
 * ```
 */
export interface MaskSelection {
  path: MaskSegment[];
  children?: MaskSelection[];
}

/**
 * Bounds that keep any mask cheap to read and apply.
 *
 * @example
 * ```ts
 * parseFieldMask(text, { ...DEFAULT_FIELD_MASK_LIMITS, maxLength: 1024 });
 * ```
 */
export interface FieldMaskLimits {
  /** Maximum length in UTF-16 code units. Default 8192. */
  maxLength: number;
  /** Maximum nesting of parentheses. Default 32 (at most 100: the reader recurses per level). */
  maxDepth: number;
  /** Maximum number of path segments in all. Default 1024. */
  maxSegments: number;
}

/**
 * The default {@link FieldMaskLimits}.
 *
 * @example
 * ```ts
 * compileFieldMask(text, schema, { limits: { ...DEFAULT_FIELD_MASK_LIMITS, maxDepth: 8 } });
 * ```
 */
export const DEFAULT_FIELD_MASK_LIMITS: Readonly<FieldMaskLimits> = Object.freeze({
  maxLength: 8192,
  maxDepth: 32,
  maxSegments: 1024,
});

const MAX_DEPTH = 100;

// Characters with a meaning of their own; anything else (letters, digits, `_`, `-`, `$`, `@`,
// non-ASCII) belongs to a name, so label keys such as `app-name` need no quoting.
const SPECIAL = new Set([',', '(', ')', '/', '.', '*', '`', ' ', '\t', '\n', '\r']);

/**
 * Reads a field mask, in either spelling Google uses for the same thing, into selections:
 *
 * - the `fields` system parameter of partial responses: comma-separated paths, `/` between the
 *   steps of a path, `a(b,c)` sub-selections (nested at will), `*` (`items(name,labels)`,
 *   `items/labels/env`, `kind,items(id,metadata/*)`);
 * - AIP-161 field-mask paths (a FieldMask's JSON form, `read_mask`): `.` between steps, map keys
 *   as steps, `` `backticks` `` around keys holding special characters, `*` on a repeated field
 *   or a map (`labels.env`, `authors.*.given_name`, ``reviews.`John Smith` ``).
 *
 * The two mix freely. Spaces around names and punctuation are ignored. The empty text selects
 * nothing in particular (callers treat it as "every field", as Google does). Syntax only:
 * {@link compileFieldMask} checks the paths against a schema. Throws a {@link ListkitError}
 * (input `fields`, code `invalid_field_mask` or `too_long`/`too_deep`) with the position.
 *
 * @example
 * ```ts
 * parseFieldMask('items(name,IPAddress),nextPageToken').length; // 2
 * parseFieldMask('items(name'); // throws: expected ')' to close '(' at 6 (1:11)
 * ```
 */
export function parseFieldMask(
  text: string,
  limits: FieldMaskLimits = DEFAULT_FIELD_MASK_LIMITS,
): MaskSelection[] {
  if (text.length > limits.maxLength) {
    throw ListkitError.of(
      'fields',
      'too_long',
      `the field mask is ${text.length} characters long; the limit is ${limits.maxLength}`,
      { start: limits.maxLength, end: text.length },
      text,
    );
  }
  const reader = new MaskReader(text, Math.min(limits.maxDepth, MAX_DEPTH), limits.maxSegments);
  reader.skipSpaces();
  if (reader.atEnd()) return [];
  const selections = reader.list(0);
  reader.skipSpaces();
  if (!reader.atEnd()) reader.fail(`unexpected '${text[reader.at]}'`, 1);
  return selections;
}

/** A recursive-descent reader over the mask text; recursion is bounded by `maxDepth`. */
class MaskReader {
  at = 0;
  private segments = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly maxSegments: number,
  ) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  skipSpaces(): void {
    while (!this.atEnd() && /\s/.test(this.text[this.at]!)) this.at++;
  }

  fail(
    message: string,
    width = 1,
    code: 'invalid_field_mask' | 'too_deep' = 'invalid_field_mask',
  ): never {
    const start = Math.min(this.at, this.text.length);
    throw ListkitError.of('fields', code, message, { start, end: start + width }, this.text);
  }

  /** selection (',' selection)* */
  list(depth: number): MaskSelection[] {
    const selections = [this.selection(depth)];
    for (;;) {
      this.skipSpaces();
      if (this.text[this.at] !== ',') return selections;
      this.at++;
      selections.push(this.selection(depth));
    }
  }

  /** path ('(' list ')')? */
  private selection(depth: number): MaskSelection {
    const path = this.path();
    this.skipSpaces();
    if (this.text[this.at] !== '(') return { path };
    if (depth + 1 > this.maxDepth) {
      this.fail(`parentheses nest deeper than ${this.maxDepth}`, 1, 'too_deep');
    }
    const open = this.at;
    this.at++;
    this.skipSpaces();
    if (this.text[this.at] === ')') this.fail("expected a field name inside '()'");
    const children = this.list(depth + 1);
    this.skipSpaces();
    if (this.text[this.at] !== ')') {
      this.fail(`expected ')' to close '(' at ${open + 1}`, this.atEnd() ? 0 : 1);
    }
    this.at++;
    return { path, children };
  }

  /** segment (('/' | '.') segment)* */
  private path(): MaskSegment[] {
    const path = [this.segment()];
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.at];
      if (c !== '/' && c !== '.') return path;
      this.at++;
      path.push(this.segment());
    }
  }

  private segment(): MaskSegment {
    this.skipSpaces();
    if (++this.segments > this.maxSegments) {
      this.fail(`the field mask has more than ${this.maxSegments} steps`, 1, 'too_deep');
    }
    const start = this.at;
    const c = this.text[this.at];
    if (c === '*') {
      this.at++;
      return { name: '*', star: true, span: { start, end: this.at } };
    }
    if (c === '`') return this.quoted(start);
    while (!this.atEnd() && !SPECIAL.has(this.text[this.at]!)) this.at++;
    if (this.at === start) {
      this.fail(
        this.atEnd() ? 'expected a field name at the end' : `expected a field name, not '${c}'`,
      );
    }
    return { name: this.text.slice(start, this.at), star: false, span: { start, end: this.at } };
  }

  /** A backticked map key; a backtick inside is written twice (AIP-161, as in luci's masks). */
  private quoted(start: number): MaskSegment {
    let name = '';
    this.at++;
    for (;;) {
      if (this.atEnd()) {
        this.at = start;
        this.fail('unterminated `quoted` key', this.text.length - start);
      }
      const c = this.text[this.at]!;
      this.at++;
      if (c !== '`') {
        name += c;
      } else if (this.text[this.at] === '`') {
        name += '`';
        this.at++;
      } else {
        return { name, star: false, span: { start, end: this.at } };
      }
    }
  }
}
