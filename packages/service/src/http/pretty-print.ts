import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { JSON_CONTENT_TYPE } from './json-content-type.js';
import { systemParam } from './system-parameters.js';

// Google's `prettyPrint` system parameter: "Returns response with indentations and line
// breaks", true by default. Google's front end indents JSON answers by two spaces, `": "`
// between a name and its value, empty objects and arrays as `{}` and `[]`, and ends the body
// with a newline; `prettyPrint=false` answers compact text. docs/decisions/0073 has the why.

/** The longest answer indented; a longer one is sent compact (its size is the point then). */
export const MAX_PRETTY_BYTES = 64 * 1024 * 1024;

/**
 * Whether a call asks for indented JSON: its `prettyPrint` (or `$prettyPrint`) absent, empty or
 * true. Its value was checked before the method ran (`system-parameters.ts`); a refused value
 * answers the refusal indented, as the default says.
 *
 * @example
 * ```ts
 * asksForIndentedJson(c); // false for `?prettyPrint=false`
 * ```
 */
export function asksForIndentedJson(c: Context): boolean {
  const value = systemParam(c, 'prettyPrint');
  return value === undefined || !/^false$/i.test(value.trim());
}

/** Answers already written in the form their call asks for: {@link prettyPrintAnswers} passes them. */
const writtenAsAsked = new WeakSet<Response>();

/**
 * Marks a JSON answer that its route wrote in the form the call asks for (indented or compact,
 * {@link asksForIndentedJson}), so that {@link prettyPrintAnswers} sends it as it is instead of
 * reading it back and writing it again: a list page of 500 is written indented from each
 * rule's cached entry (`listPageBytes`), where indenting it afterwards took twice as long as
 * serialising it. An answer that replaces it (a `fields` projection, an error) is not marked.
 *
 * @example
 * ```ts
 * return answeredAsAsked(c.body(body, 200, { 'content-type': JSON_CONTENT_TYPE }));
 * ```
 */
export function answeredAsAsked(res: Response): Response {
  writtenAsAsked.add(res);
  return res;
}

/**
 * A value's JSON text in the form the call asks for: indented as {@link indentJson} writes it,
 * or compact.
 *
 * @example
 * ```ts
 * c.res = answeredAsAsked(new Response(jsonAsAsked(c, value), { status: 200, headers }));
 * ```
 */
export function jsonAsAsked(c: Context, value: unknown): string {
  return asksForIndentedJson(c) ? indentedText(value) : JSON.stringify(value);
}

/**
 * A Google API method's JSON answer, written once in the form its call asks for (indented unless
 * `prettyPrint=false`) and marked, so that {@link prettyPrintAnswers} sends it as it is. Every
 * method answers through this, not `c.json`: an answer read back on @hono/node-server becomes a
 * Web Response whose body is streamed to the socket, and a rule's GET took 3.2x a bare
 * `node:http` answer of the same bytes that way (issue 38).
 *
 * @example
 * ```ts
 * app.get(path, async (c) => jsonAnswer(c, await rules.get(where, name)));
 * ```
 */
export function jsonAnswer(
  c: Context,
  value: unknown,
  status: ContentfulStatusCode = 200,
): Response {
  return answeredAsAsked(
    c.body(jsonAsAsked(c, value), status, { 'content-type': JSON_CONTENT_TYPE }),
  );
}

/**
 * JSON text indented as Google's front end writes it: two spaces, `": "` after a name, `{}` and
 * `[]` for empty ones, a newline at the end. The emulator's answers are written by
 * `JSON.stringify`, so reading them back and writing them anew keeps every value exactly; text
 * that is not JSON comes back unchanged.
 *
 * @example
 * ```ts
 * indentJson('{"a":[1,{}],"b":""}'); // '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": ""\n}\n'
 * ```
 */
export function indentJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  return value !== null && typeof value === 'object' ? indentedText(value) : text;
}

/** A JSON value's text indented as Google's front end writes it (see {@link indentJson}). */
function indentedText(value: unknown): string {
  return value !== null && typeof value === 'object'
    ? `${JSON.stringify(value, null, 2)}\n`
    : JSON.stringify(value);
}

/**
 * Middleware for the Google API paths: a JSON answer (a method's or an error) is indented
 * unless the call says `prettyPrint=false`. Registered inside the gzip step, so what is
 * compressed is what Google would send.
 *
 * @example
 * ```ts
 * app.use('*', prettyPrintAnswers(isGoogleApiPath));
 * ```
 */
export function prettyPrintAnswers(applies: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (!applies(c.req.path) || !asksForIndentedJson(c)) return;
    const res = c.res;
    if (writtenAsAsked.has(res)) return;
    if (!(res.headers.get('content-type') ?? '').includes('json') || res.body === null) return;
    if (res.headers.has('content-encoding')) return;
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    if (length > MAX_PRETTY_BYTES) return;
    const text = await res.text();
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    // Hono copies the old answer's headers onto a new one (its length too): drop it first.
    c.res = undefined as unknown as Response;
    c.res = new Response(text === '' ? text : indentJson(text), { status: res.status, headers });
  };
}
