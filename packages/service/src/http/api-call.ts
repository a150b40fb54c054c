import type { MessageType } from '@listkit/query';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { type Principal, requirePermission, requireScope } from '../auth/auth.js';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { ApiError } from './api-error.js';
import { projectAnswer, responseMask } from './partial-response.js';
import { checkQueryText, isAcceptedText } from './request-text.js';
import { requestUrl } from './request-url.js';
import { checkQueryParameters } from './system-parameters.js';

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
  /**
   * The resource the path names, when it names one: its names as decoded from the path, and the
   * API's answer when it does not exist. A name holding U+0000 or an unpaired surrogate is the
   * name of nothing on any store (`request-text.ts`), so the call answers that not found before
   * any store is read.
   */
  target?: (c: Context) => PathTarget;
  /**
   * The method's own query parameters (its request message's fields other than the path's):
   * with the system parameters, the only ones accepted; any other is a 400 (`skip` on Compute).
   */
  parameters?: readonly string[];
  /** The type of the method's answer: what a `fields` selection is checked against. */
  answer: MessageType;
}

/** A resource a path names (see {@link CallRule.target}). */
export interface PathTarget {
  /** The path's names of it, decoded (a rule's name; a package name and an order id). */
  names: readonly string[];
  /** The error the API answers for a resource that does not exist (a not-found domain error). */
  missing: () => Error;
}

/**
 * The start of every API call, as Hono middleware declared once per route: name the call for the
 * request log, apply injected faults, authenticate (401), check the scope (403) and, when the
 * path names the resource, the permission (403); then the caller's text, before any store is
 * touched (`request-text.ts`): a query parameter holding U+0000 or an unpaired surrogate is 400
 * naming it, a resource named so in the path is not found; the query's parameters, each a system
 * parameter or one of the method's (`system-parameters.ts`), and a `fields` selection checked
 * against the method's answer, which is then projected (`partial-response.ts`). The handler
 * reads the caller from `c.var.caller`.
 *
 * @example
 * ```ts
 * app.get(
 *   '/compute/v1/projects/:project/regions/:region/forwardingRules/:name',
 *   apiCall(state, { method: 'compute.forwardingRules.get', scopes: READ_SCOPES, answer: FORWARDING_RULE }),
 *   (c) => jsonAnswer(c, { caller: c.var.caller.identity }),
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
    checkQueryText(c);
    checkQueryParameters(c, rule.parameters ?? []);
    const mask = responseMask(c, rule.answer);
    // Every name of the path (a route without a declared target too, should one be added).
    const target = rule.target?.(c);
    const names = [
      ...Object.values(c.req.param() as Record<string, string>),
      ...(target?.names ?? []),
    ];
    if (!names.every(isAcceptedText)) throw target ? target.missing() : urlNotFound(c);
    c.set('caller', caller);
    await next();
    if (mask) await projectAnswer(c, mask);
  });
}

/** The emulator's answer for a path it does not serve (as `app.notFound` words it). */
function urlNotFound(c: Context): ApiError {
  return new ApiError(
    404,
    'notFound',
    `The requested URL ${requestUrl(c).pathname} was not found on this server.`,
  );
}
