import type { Context } from 'hono';
import type { EmulatorEnv } from '../emulator-state.js';

/**
 * The request's URL, parsed once per call: the first middleware that needs it parses it, and
 * every later one (the host check, the URL limit, the request log, routes) reads the same object.
 * Query parameters are read from it too (`queryParam`).
 *
 * @example
 * ```ts
 * const { pathname, search } = requestUrl(c);
 * ```
 */
export function requestUrl(c: Context): URL {
  let url: URL | undefined = (c as Context<EmulatorEnv>).get('url');
  if (!url) {
    url = new URL(c.req.url);
    (c as Context<EmulatorEnv>).set('url', url);
  }
  return url;
}
