import type { Hono } from 'hono';
import type { EmulatorEnv, EmulatorState } from '../emulator-state.js';
import { forwardingRuleRoutes } from '../forwarding-rules/forwarding-rule-routes.js';
import { forwardingRuleUpdateRoutes } from '../forwarding-rules/forwarding-rule-update-routes.js';
import { operationRoutes } from '../operations/operation-routes.js';
import { GLOBAL_OPERATIONS, GLOBAL_RULES } from './global-scope.js';

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
