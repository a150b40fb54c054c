import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AuthConfig } from '../auth/auth.js';
import { ApiError } from '../http/api-error.js';
import { requestUrl } from '../http/request-url.js';

/** Methods a cross-site page can send without a CORS preflight carry no control-plane change. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** Control-plane paths open to everyone, whatever the mode: liveness says nothing about state. */
const OPEN_PATHS = new Set(['/health']);

/** Whether a `Content-Type` is JSON (`application/json`, with or without parameters). */
export function isJsonContentType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Guards the control plane (`/_listkit/*`, `prefix` stripped from `path` by the caller):
 *
 * - every request that may change state (any method but GET and HEAD) must say
 *   `Content-Type: application/json`, body or not: a cross-site form or `no-cors` fetch can
 *   only send `text/plain`, form types or none, so it is refused (415) before any effect;
 * - when a control token is configured, every request but `/health` must carry it as
 *   `Authorization: Bearer <token>` (401); in strict mode without one the control plane is off
 *   (403), since API tokens must not reach other projects' data through it.
 *
 * @example
 * ```ts
 * app.use('/_listkit/*', controlGuard('/_listkit', () => state.auth));
 * ```
 */
export function controlGuard(prefix: string, auth: () => AuthConfig): MiddlewareHandler {
  return async (c, next) => {
    const path = requestUrl(c).pathname.slice(prefix.length);
    if (
      !READ_METHODS.has(c.req.method) &&
      !isJsonContentType(c.req.header('content-type') ?? null)
    ) {
      throw new ApiError(
        415,
        'unsupportedMediaType',
        `The control plane accepts only Content-Type: application/json, not '${(c.req.header('content-type') ?? '(none)').slice(0, 100)}'.`,
      );
    }
    if (OPEN_PATHS.has(path)) return next();
    const config = auth();
    const expected = config.controlToken;
    if (expected === undefined) {
      if (config.mode === 'open') return next();
      throw new ApiError(
        403,
        'forbidden',
        'The control plane is disabled in strict auth mode until a control token is configured ("controlToken" in the auth config, or LISTKIT_CONTROL_TOKEN).',
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!match || !sameSecret(match[1]!, expected)) {
      throw new ApiError(
        401,
        'required',
        'The control plane needs the control token: Authorization: Bearer <control token>.',
        { location: 'Authorization', locationType: 'header' },
      );
    }
    return next();
  };
}
