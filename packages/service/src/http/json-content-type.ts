import type { MiddlewareHandler } from 'hono';

/** What Google APIs send as the type of every JSON answer (recorded real traffic). */
export const JSON_CONTENT_TYPE = 'application/json; charset=UTF-8';

/**
 * Labels JSON answers `application/json; charset=UTF-8`, as the real API does: Hono's `c.json`
 * writes a bare `application/json`, and routes should not each have to say it. Other answers
 * (204 without a body, static files) are left as they are.
 *
 * @example
 * ```ts
 * app.use('*', jsonContentType());
 * ```
 */
export function jsonContentType(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.headers.get('content-type') === 'application/json') {
      c.res.headers.set('content-type', JSON_CONTENT_TYPE);
    }
  };
}
