import type { Context } from 'hono';
import type { RuleRoutesScope } from '../forwarding-rules/rule-routes-scope.js';
import type { ScopeRef } from '../names/resource-names.js';
import type { OperationRoutesScope } from '../operations/operation-routes.js';

/** The path of a project's global collections; routes append `/forwardingRules`, `/operations`. */
export const GLOBAL = '/compute/v1/projects/:project/global';

/**
 * The global scope of a global route's path: its project (checked by `computePathSegments`).
 *
 * @example
 * ```ts
 * await state.globalForwardingRules.get(globalOf(c), c.req.param('name'));
 * ```
 */
export const globalOf = (c: Context): ScopeRef => ({ project: c.req.param('project')! });

/**
 * Global forwarding rules as the shared forwarding-rule routes serve them: under `…/global`, named
 * `compute.globalForwardingRules.*` (API methods and IAM permissions), kept by the emulator's
 * `globalForwardingRules` (the global create rules), with `GlobalSetLabelsRequest` bodies.
 *
 * @example
 * ```ts
 * forwardingRuleRoutes(app, state, GLOBAL_RULES);
 * ```
 */
export const GLOBAL_RULES: RuleRoutesScope = {
  path: GLOBAL,
  resource: 'compute.globalForwardingRules',
  scopeOf: globalOf,
  rules: (state) => state.globalForwardingRules,
  setLabelsRequest: 'GlobalSetLabelsRequest',
};

/**
 * Global operations as the shared operation routes serve them (`compute.globalOperations.*`).
 *
 * @example
 * ```ts
 * operationRoutes(app, state, GLOBAL_OPERATIONS);
 * ```
 */
export const GLOBAL_OPERATIONS: OperationRoutesScope = {
  path: GLOBAL,
  resource: 'compute.globalOperations',
  scopeOf: globalOf,
};
