import type { Context, Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import {
  forwardingRuleRoutes,
  type RuleRoutesScope,
} from '../forwarding-rules/forwarding-rule-routes.js';
import { forwardingRuleUpdateRoutes } from '../forwarding-rules/forwarding-rule-update-routes.js';
import type { ScopeRef } from '../names/resource-names.js';
import { type OperationRoutesScope, operationRoutes } from '../operations/operation-routes.js';

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

/**
 * Compute Engine's global forwarding rules and global operations: insert, list, get, delete,
 * setLabels, setTarget and patch under `projects/{p}/global/forwardingRules`; get, wait, delete
 * and list under `projects/{p}/global/operations`. The regional rules' routes serve them, with
 * the global scope ({@link GLOBAL_RULES}, {@link GLOBAL_OPERATIONS}).
 *
 * @example
 * ```ts
 * globalForwardingRuleRoutes(app, state);
 * ```
 */
export function globalForwardingRuleRoutes(app: Hono<EmulatorEnv>, state: EmulatorState): void {
  forwardingRuleRoutes(app, state, GLOBAL_RULES);
  forwardingRuleUpdateRoutes(app, state, GLOBAL_RULES);
  operationRoutes(app, state, GLOBAL_OPERATIONS);
}
