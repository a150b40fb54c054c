import type { Socket } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.js';
import { JSON_CONTENT_TYPE } from './json-content-type.js';
import { requestUrl } from './request-url.js';

/**
 * The longest request target (path and query) answered, in characters: 64 KiB holds the longest
 * filter (8192 characters, up to 3 bytes each percent-encoded) with room for a page token.
 */
export const MAX_URL_LENGTH = 64 * 1024;

/**
 * Node's limit on the request line and headers together, raised from its 16 KiB default so that a
 * long URL reaches {@link urlLimit} and gets a 414 instead of a dropped connection.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * 414 for a request target longer than {@link MAX_URL_LENGTH}, before any route reads it.
 *
 * @example
 * ```ts
 * app.use('*', urlLimit());
 * ```
 */
export function urlLimit(): MiddlewareHandler {
  return async (c, next) => {
    const url = requestUrl(c);
    const length = url.pathname.length + url.search.length;
    if (length > MAX_URL_LENGTH) {
      throw new ApiError(
        414,
        'uriTooLong',
        `The request URL is ${length} characters long; this emulator accepts at most ${MAX_URL_LENGTH}.`,
      );
    }
    return next();
  };
}

/**
 * Answers a request Node's HTTP parser refused (headers over {@link MAX_HEADER_BYTES}, malformed
 * requests) with a JSON error in Google's envelope and closes the connection, instead of
 * resetting it. For the server's `clientError` event.
 *
 * @example
 * ```ts
 * server.on('clientError', answerClientError);
 * ```
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, text, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`,
        ]
      : [400, 'Bad Request', 'The request is not valid HTTP/1.1.'];
  const body = JSON.stringify({
    error: { code: status, message, errors: [{ domain: 'global', reason: 'badRequest', message }] },
  });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
