import { ApiError, errors } from './api-error.js';

/** Request bodies above this size get 413 (Compute's own limit is not published). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON request body. An absent or empty body, and the two-byte body `""` that the Node
 * compute client sends on `wait`, read as `undefined`. Malformed JSON is 400 with the parser's
 * reason; a body over `limit` bytes is 413.
 */
export async function readJsonBody(request: Request, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const text = (await readText(request, limit)).trim();
  if (text === '' || text === '""') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw errors.badRequest(`Invalid JSON payload received. ${reason}`);
  }
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
