import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type Principal, requirePermission, requireScope } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';

/** The Hono variables of a route behind {@link apiCall}: the authenticated caller. */
export type CallEnv = EmulatorEnv & { Variables: { caller: Principal } };

/** An IAM permission and the resource a request's path says it is checked on. */
export interface PermissionRule {
  /** Such as `compute.forwardingRules.get`. */
  name: string;
  /** The project whose grants apply, and the resource named in a refusal. */
  on(c: Context): { project: string; resource: string };
}

/** What the start of one API method checks. */
export interface CallRule {
  /** The API method, named in the request log and matched by fault rules. */
  method: string;
  /** Any one of these OAuth scopes lets the call through (403 otherwise). */
  scopes: readonly string[];
  /**
   * The permission checked before the handler runs (403 otherwise). Leave it out when the
   * resource is known only from the body (an insert checks it in its handler).
   */
  permission?: PermissionRule;
}

/**
 * The start of every API call, as Hono middleware declared once per route: name the call for the
 * request log, apply injected faults, authenticate (401), check the scope (403) and, when the
 * path names the resource, the permission (403). The handler reads the caller from
 * `c.var.caller`.
 *
 * @example
 * ```ts
 * app.get(
 *   '/compute/v1/projects/:project/regions/:region/forwardingRules/:name',
 *   apiCall(state, { method: 'compute.forwardingRules.get', scopes: READ_SCOPES }),
 *   (c) => c.json({ caller: c.var.caller.identity }),
 * );
 * ```
 */
export function apiCall(state: Pick<EmulatorState, 'faults' | 'authenticate'>, rule: CallRule) {
  return createMiddleware<CallEnv>(async (c, next) => {
    c.set('apiMethod', rule.method);
    state.faults.check(rule.method);
    const caller = state.authenticate(c.req.raw);
    c.set('principal', caller.identity);
    requireScope(caller, rule.scopes);
    if (rule.permission) {
      const { project, resource } = rule.permission.on(c);
      requirePermission(caller, project, rule.permission.name, resource);
    }
    c.set('caller', caller);
    await next();
  });
}
