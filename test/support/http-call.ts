/**
 * The one HTTP helper of every test: builds a request, sends it to an emulator (in process, no
 * socket) or to a server's URL (over the network), and reads the answer. Test-only.
 */

/** Anything with the emulator's in-process `fetch`. */
export interface Fetcher {
  fetch(request: Request): Response | Promise<Response>;
}

/** Where a request goes: an emulator's own `fetch`, or a server's base URL (`http://host:port`). */
export type Target = Fetcher | string;

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

/**
 * An answer: `json` is the body parsed (when read), undefined when the body is empty; `headers`
 * and `text` are not enumerable, so `expect(answer).toEqual({ status: 200, json })` holds.
 */
export interface CallResult<T> {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON answers of many shapes
  readonly json: T extends undefined ? any : T;
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
 * Sends one request and reads the answer. To an emulator, `path` is a path on its origin or an
 * absolute URL; to a base URL, `path` is appended to it.
 *
 * @example
 * ```ts
 * const { status, json } = await call(emulator, 'POST', RULES, { body: { name: 'fr-1' } });
 * const listed = await call(url, 'GET', RULES, { token: 'x' }); // a server over the network
 * ```
 */
export async function call<T = undefined>(
  target: Target,
  method: string,
  path: string,
  init: CallInit = {},
): Promise<CallResult<T>> {
  const response =
    typeof target === 'string'
      ? await fetch(request(method, target + path, init))
      : await target.fetch(request(method, path, init));
  const text = await response.text();
  const result = {
    status: response.status,
    get json() {
      return text ? JSON.parse(text) : undefined;
    },
  };
  // Not enumerable: `toEqual({ status, json })` compares what an API test asserts.
  return Object.defineProperties(result, {
    headers: { value: response.headers },
    text: { value: text },
  }) as CallResult<T>;
}

/** `call` with its target and defaults bound; a body is the third argument. */
export type Caller<T> = (
  method: string,
  path: string,
  body?: unknown,
  init?: CallInit,
) => Promise<CallResult<T>>;

/**
 * `call` bound to one target (or a function giving it, for one set up later) and defaults;
 * `init` given at the call is applied over the defaults, its headers over theirs.
 *
 * @example
 * ```ts
 * const send = caller<Json>(emulator, { token: 't' });
 * const inserted = await send('POST', RULES, { name: 'fr-1' });
 * ```
 */
export function caller<T = undefined>(
  target: Target | (() => Target),
  defaults: CallInit = {},
): Caller<T> {
  return (method, path, body, init = {}) =>
    call<T>(typeof target === 'function' ? target() : target, method, path, {
      ...defaults,
      ...init,
      headers: { ...defaults.headers, ...init.headers },
      ...(body === undefined ? {} : { body }),
    });
}
