import { compileFieldMask, type FieldMask, ListkitError, type MessageType } from '@listkit/query';
import type { Context } from 'hono';
import { ApiError } from './api-error.js';
import { answeredAsAsked, jsonAsAsked } from './pretty-print.js';
import { errorShapeOf } from './refusal-answer.js';
import { systemParam } from './system-parameters.js';

/**
 * The answer of a method that answers no message (a refund's empty body): `fields` may only
 * select everything of it.
 */
export const EMPTY_ANSWER: MessageType = { kind: 'message', fields: {} };

/**
 * The partial response a call asks for with the `fields` system parameter (or `$fields`),
 * checked against the type of the method's answer before the method runs, so that a bad
 * selection changes nothing: 400 naming the path, with its position and a did-you-mean.
 * Undefined when the call asks for everything (no `fields`, empty, or `*`).
 *
 * @example
 * ```ts
 * const mask = responseMask(c, FORWARDING_RULE_LIST); // ?fields=items(name),nextPageToken
 * ```
 */
export function responseMask(c: Context, answer: MessageType): FieldMask | undefined {
  const text = systemParam(c, 'fields');
  if (text === undefined) return undefined;
  try {
    const mask = compileFieldMask(text, answer);
    return mask.selectsAll ? undefined : mask;
  } catch (error) {
    if (!(error instanceof ListkitError)) throw error;
    throw new ApiError(
      400,
      'invalidParameter',
      `Invalid field selection '${text.length > 200 ? `${text.slice(0, 200)}…` : text}': ${error.message} (${error.line}:${error.column})`,
      {
        location: 'fields',
        locationType: 'parameter',
        ...(errorShapeOf(c) === 'publisher' ? { status: 'INVALID_ARGUMENT' } : {}),
      },
    );
  }
}

/**
 * Keeps only the selected paths of a call's successful JSON answer (errors are answered whole,
 * as Google does; an empty body stays empty). The answer is read back and written anew, so
 * every route's answer is projected the same way, whatever wrote it, and written in the form
 * the call asks for (`prettyPrint`).
 *
 * @example
 * ```ts
 * await next();
 * if (mask) await projectAnswer(c, mask);
 * ```
 */
export async function projectAnswer(c: Context, mask: FieldMask): Promise<void> {
  const res = c.res;
  if (res.status < 200 || res.status >= 300) return;
  if (!(res.headers.get('content-type') ?? '').includes('json')) return;
  const text = await res.text();
  // Written in the form the call asks for (prettyPrint), so that it is not read back again.
  const body = text === '' ? text : jsonAsAsked(c, mask.apply(JSON.parse(text)));
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  // Hono copies the old answer's headers onto a new one (its length too): drop it first.
  c.res = undefined as unknown as Response;
  c.res = answeredAsAsked(new Response(body, { status: res.status, headers }));
}
