import type { Context } from 'hono';
import { previewText } from '../core/value-preview.js';
import { ApiError } from './api-error.js';
import { type ErrorShape, errorShapeOf } from './refusal-answer.js';
import { requestUrl } from './request-url.js';

// The one rule for the text a caller sends (decision 0020, "Text no store can hold",
// docs/decisions/0020-text-no-store-can-hold-400-in-a-body-or-query-not-found-in-a.md): it is
// Unicode text without U+0000 and without unpaired surrogates. PostgreSQL text and jsonb cannot
// hold U+0000, and an unpaired surrogate (which JSON can still spell, "\ud800") has no UTF-8
// form, so such text could reach the memory store but never a SQL one. It is refused at the HTTP
// edge, before any store is read or written, the same way whatever the store:
//
// - in a JSON body (every string value and every key, at any depth): 400 naming the field;
// - in a query parameter (any of them): 400 naming the parameter;
// - in a name the path gives (a rule, an operation, an order, a package): the name of nothing,
//   so the call answers its resource's not found, as for any name nothing has.
//
// Escapes inside a filter's literals (`"\x00"`) are the filter language's, not request text:
// no stored text can equal them, and the list engine (memory or SQL) simply finds no match.

/** U+0000, a high surrogate with no low one after it, or a low one with no high one before. */
const UNACCEPTED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a message shows escaped (`\u0000`): control characters and unpaired surrogates. */
const ESCAPED =
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Field paths longer than this are cut in messages (a value can be nested 10,000 deep). */
const MAX_FIELD_CHARS = 200;

/**
 * Whether a caller's text is text every store can hold: no U+0000, no unpaired surrogate.
 *
 * @example
 * ```ts
 * isAcceptedText('web-1'); // true
 * isAcceptedText('a\u0000b'); // false
 * isAcceptedText('\ud800'); // false
 * ```
 */
export function isAcceptedText(text: string): boolean {
  return !UNACCEPTED.test(text);
}

/**
 * The 400 for text the rule refuses, in the emulator's words for a bad field value, naming the
 * field (or parameter) and quoting the text (at most 64 characters) with control characters and
 * unpaired surrogates written as `\uXXXX`.
 * Android Publisher's answers carry the canonical status (`INVALID_ARGUMENT`).
 *
 * @example
 * ```ts
 * throw unacceptedText('resource.description', 'a\u0000b');
 * // Invalid value for field 'resource.description': 'a\u0000b'. Must be valid UTF-8 text without NUL (U+0000).
 * ```
 */
export function unacceptedText(
  field: string,
  text: string,
  shape: ErrorShape = 'compute',
): ApiError {
  const shown = previewText(text).replace(
    ESCAPED,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return new ApiError(
    400,
    'invalid',
    `Invalid value for field '${field}': '${shown}'. Must be valid UTF-8 text without NUL (U+0000).`,
    { location: field, ...(shape === 'publisher' ? { status: 'INVALID_ARGUMENT' } : {}) },
  );
}

/** One value met while walking a body, with how to name it. */
interface Visit {
  value: unknown;
  parent: Visit | undefined;
  /** The key or index under the parent (none for the body itself). */
  step: string | number | undefined;
}

/** `root.a.b[2].c`, from a visit up to the body; `root` alone names the body. */
function fieldOf(visit: Visit, root: string): string {
  const steps: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.step !== undefined; at = at.parent) {
    steps.push(at.step);
  }
  let path = root;
  for (const step of steps.reverse()) {
    path += typeof step === 'number' ? `[${step}]` : path === '' ? step : `.${step}`;
    if (path.length > MAX_FIELD_CHARS) return `${path.slice(0, MAX_FIELD_CHARS)}…`;
  }
  return path === '' ? 'body' : path;
}

/**
 * Refuses a parsed JSON body that holds text the rule refuses anywhere: the first such string
 * value or key, in document order, is a 400 naming its field (`resource.labels.env`; a key is
 * named by the object that holds it, `resource.labels`). The walk keeps its own stack, so a
 * value nested 10,000 deep costs no call stack. `root` names the body in messages: `resource`
 * for a Compute resource, `''` for a request whose fields are named bare (`labels.env`).
 *
 * @example
 * ```ts
 * checkBodyText({ description: 'a\u0000b' }, 'resource'); // throws 400 naming resource.description
 * ```
 */
export function checkBodyText(body: unknown, root: string): void {
  const stack: Visit[] = [{ value: body, parent: undefined, step: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, parent, step } = visit;
    if (typeof step === 'string' && parent && !isAcceptedText(step)) {
      throw unacceptedText(fieldOf(parent, root), step);
    }
    if (typeof value === 'string') {
      if (!isAcceptedText(value)) throw unacceptedText(fieldOf(visit, root), value);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], parent: visit, step: i });
      }
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push({ value: item, parent: visit, step: key });
      }
    }
  }
}

/**
 * Refuses a request whose query parameters (names or values, any of them) hold text the rule
 * refuses: 400 naming the parameter. Values are read as the routes read them (`queryParam`),
 * decoded from the URL, where an invalid UTF-8 escape is already U+FFFD.
 *
 * @example
 * ```ts
 * checkQueryText(c); // throws for ?filter=name%3D%22a%00%22
 * ```
 */
export function checkQueryText(c: Context): void {
  for (const [name, value] of requestUrl(c).searchParams) {
    if (!isAcceptedText(name)) throw unacceptedText(name, name, errorShapeOf(c));
    if (!isAcceptedText(value)) throw unacceptedText(name, value, errorShapeOf(c));
  }
}
