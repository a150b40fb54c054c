/**
 * The one HTTP helper the service's tests share: builds a request against an emulator's `fetch`
 * (no socket), sends it, and reads the answer as JSON. Test-only; not part of the package entry.
 */

/** Anything with the emulator's in-process `fetch`. */
export interface Fetcher {
  fetch(request: Request): Response | Promise<Response>;
}

/** How to shape one request. */
export interface CallInit {
  /** Bearer token for `Authorization`; `null` sends none. Default `tok`. */
  token?: string | null;
  /** A raw `Authorization` header value, sent instead of the bearer `token`. */
  authorization?: string;
  /** Send only `headers` (and `authorization`): no default token or content type. */
  bareHeaders?: boolean;
  /** Headers applied over the defaults (an `authorization` here wins over both). */
  headers?: Record<string, string>;
  /**
   * A string, stream or other `BodyInit` is sent as is; any other value as JSON. With a body,
   * `content-type` defaults to `application/json`.
   */
  body?: unknown;
}

/** A parsed answer: `json` is undefined when the body is empty. */
export interface CallResult<T> {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers of many shapes
  json: T extends undefined ? any : T;
  headers: Headers;
  text: string;
}

const ORIGIN = 'http://emulator';

function isBodyInit(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    body instanceof ReadableStream ||
    body instanceof ArrayBuffer ||
    body instanceof Uint8Array ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof FormData
  );
}

/**
 * The request `call` sends: `path` is a path on the emulator origin or an absolute URL.
 *
 * @example
 * ```ts
 * const res = await emulator.fetch(request('GET', '/compute/v1/projects/p/regions/r/forwardingRules'));
 * ```
 */
export function request(method: string, path: string, init: CallInit = {}): Request {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  else if (init.token !== null && !init.bareHeaders) {
    headers.authorization = `Bearer ${init.token ?? 'tok'}`;
  }
  if (init.body !== undefined && !init.bareHeaders) headers['content-type'] = 'application/json';
  Object.assign(headers, init.headers);
  const body =
    init.body === undefined
      ? undefined
      : isBodyInit(init.body)
        ? init.body
        : JSON.stringify(init.body);
  return new Request(path.startsWith('/') ? ORIGIN + path : path, {
    method,
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Sends one request to the emulator and parses the JSON answer.
 *
 * @example
 * ```ts
 * const { status, json } = await call(emulator, 'POST', RULES, { body: { name: 'fr-1' } });
 * ```
 */
export async function call<T = undefined>(
  emulator: Fetcher,
  method: string,
  path: string,
  init: CallInit = {},
): Promise<CallResult<T>> {
  const response = await emulator.fetch(request(method, path, init));
  const text = await response.text();
  return {
    status: response.status,
    json: text ? JSON.parse(text) : undefined,
    headers: response.headers,
    text,
  };
}
