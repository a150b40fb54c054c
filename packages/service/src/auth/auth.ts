import type { Principal } from '../core/principal.js';
import { ApiError } from '../http/api-error.js';

export type { Principal } from '../core/principal.js';

const SCOPE_PREFIX = 'https://www.googleapis.com/auth/';

/**
 * A token accepted in strict mode.
 *
 * @example
 * ```ts
 * const grant: TokenGrant = {
 *   identity: 'ci@example.com',
 *   scopes: ['compute'],
 *   permissions: { 'my-project': ['compute.forwardingRules.list', 'compute.forwardingRules.get'] },
 * };
 * await createEmulator({ auth: { mode: 'strict', tokens: { 'ci-token': grant } } });
 * ```
 */
export interface TokenGrant {
  identity: string;
  /** Scopes, as full URLs or short names (`compute`, `cloud-platform`, `androidpublisher`). */
  scopes: readonly string[];
  /** IAM permissions per project id; `'*'` applies to every project. */
  permissions?: Readonly<Record<string, readonly string[]>>;
}

/**
 * How the emulator authenticates. `open` (the default of `listkit serve`) accepts any non-empty
 * bearer token with every scope and permission; `strict` accepts only the configured tokens.
 *
 * @example
 * ```ts
 * const auth: AuthConfig = { mode: 'strict', tokens: { t1: { identity: 'a@example.com', scopes: ['compute.readonly'] } }, controlToken: process.env.LISTKIT_CONTROL_TOKEN };
 * await createEmulator({ auth });
 * ```
 */
export type AuthConfig =
  | { mode: 'open'; identity?: string; controlToken?: string }
  | {
      mode: 'strict';
      tokens: Readonly<Record<string, TokenGrant>>;
      /**
       * The credential of the control plane (`/_listkit/*`), distinct from every API token. In
       * strict mode without one the control plane is off; in open mode it is optional.
       */
      controlToken?: string;
    };

const MISSING =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.';
const INVALID =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.';

/**
 * The principal behind a request's `Authorization: Bearer …` header, or, without one, its
 * `access_token` (or `oauth_token`) query parameter, the system parameter that carries the same
 * OAuth token in the URL; 401 when there is none.
 */
export function authenticate(request: Request, config: AuthConfig): Principal {
  const header = request.headers.get('authorization') ?? '';
  const token =
    /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? (header ? undefined : urlToken(request));
  if (!token) {
    throw new ApiError(401, 'required', MISSING, {
      location: 'Authorization',
      locationType: 'header',
    });
  }
  if (config.mode === 'open') {
    return { identity: config.identity ?? 'user@example.com', scopes: 'all', permissions: 'all' };
  }
  const grant = Object.hasOwn(config.tokens, token) ? config.tokens[token] : undefined;
  if (!grant) {
    throw new ApiError(401, 'authError', INVALID, {
      location: 'Authorization',
      locationType: 'header',
    });
  }
  return {
    identity: grant.identity,
    scopes: new Set(grant.scopes.map(fullScope)),
    permissions: grant.permissions ?? {},
  };
}

/** The OAuth token a URL carries as `access_token` or `oauth_token` (first given wins). */
function urlToken(request: Request): string | undefined {
  for (const [name, value] of new URL(request.url).searchParams) {
    if ((name === 'access_token' || name === 'oauth_token') && value !== '') return value;
  }
  return undefined;
}

/** A scope as a full URL: `compute` → `https://www.googleapis.com/auth/compute`. */
export function fullScope(scope: string): string {
  return scope.includes('://') ? scope : SCOPE_PREFIX + scope;
}

/** 403 unless the principal holds one of the accepted scopes (given as short names). */
export function requireScope(principal: Principal, accepted: readonly string[]): void {
  if (principal.scopes === 'all') return;
  const scopes = principal.scopes;
  if (accepted.some((scope) => scopes.has(fullScope(scope)))) return;
  throw new ApiError(
    403,
    'insufficientPermissions',
    'Request had insufficient authentication scopes.',
  );
}

/**
 * 403 naming the permission and the resource unless the principal holds the permission on the
 * project, in Compute Engine's words: `Required 'compute.forwardingRules.create' permission for
 * 'projects/p/regions/r/forwardingRules/x'`.
 */
export function requirePermission(
  principal: Principal,
  project: string,
  permission: string,
  resource: string,
): void {
  if (principal.permissions === 'all') return;
  const grants = principal.permissions;
  // hasOwn: a project id may be any string, "constructor" included.
  const granted = [
    ...(Object.hasOwn(grants, project) ? (grants[project] ?? []) : []),
    ...(Object.hasOwn(grants, '*') ? (grants['*'] ?? []) : []),
  ];
  if (granted.includes(permission)) return;
  throw new ApiError(403, 'forbidden', `Required '${permission}' permission for '${resource}'`);
}
