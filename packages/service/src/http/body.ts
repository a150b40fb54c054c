import { ApiError, errors } from './api-error.js';
import { checkBodyText } from './request-text.js';

/** Request bodies above this size get 413 (Compute's own limit is not published). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON request body. An absent or empty body, and the two-byte body `""` that the Node
 * compute client sends on `wait`, read as `undefined`. Malformed JSON is 400 with the parser's
 * reason; a body over `limit` bytes is 413; a body holding U+0000 or an unpaired surrogate in
 * any string or key is 400 naming the field (`checkBodyText`), before any route uses it. `root`
 * names the body in that message: `resource` for a Compute resource (`resource.description`),
 * `''` for a request whose fields are named bare (`labels.env`).
 *
 * @example
 * ```ts
 * const body = await readJsonBody(c.req.raw, 'resource', state.bodyLimit);
 * ```
 */
export async function readJsonBody(
  request: Request,
  root: string,
  limit = DEFAULT_BODY_LIMIT,
): Promise<unknown> {
  const length = request.headers.get('content-length');
  const declared = Number(length ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const text = (await readBody(request, length !== null && declared, limit)).trim();
  if (text === '' || text === '""') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw errors.badRequest(`Invalid JSON payload received. ${reason}`);
  }
  checkBodyText(body, root);
  return body;
}

/**
 * Reads the body as text. A body of a declared length (at most `limit`, checked before) is read
 * whole: Node's HTTP parser delivers exactly that many bytes, and @hono/node-server then reads
 * them straight from the socket's message, without the web ReadableStream and Request it builds
 * for `request.body` (a third of an insert's own work under 8 clients, in a CPU profile of the
 * server). A body without one (chunked) is streamed and stopped as soon as it grows past `limit`.
 */
function readBody(request: Request, declared: number | false, limit: number): Promise<string> {
  const whole =
    declared !== false &&
    Number.isSafeInteger(declared) &&
    !request.headers.has('transfer-encoding');
  return whole ? request.text() : readText(request, limit);
}

/** Reads the body as text, stopping as soon as it grows past `limit` bytes. */
async function readText(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    'payloadTooLarge',
    `The request body is larger than the ${limit} bytes this emulator accepts.`,
  );
}
