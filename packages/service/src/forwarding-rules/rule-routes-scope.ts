import type { Context } from 'hono';
import type { EmulatorState } from '../emulator-state.js';
import type { PathTarget, PermissionRule } from '../http/api-call.js';
import { REGIONAL, regionOf } from '../http/compute-call.js';
import { type ScopeRef, scopedName } from '../names/resource-names.js';
import type { SetLabelsRequestName } from './forwarding-rule-update.js';
import { type ForwardingRules, ruleNotFound } from './forwarding-rules.js';

/**
 * What the forwarding-rule routes need to know of the scope they serve: the same routes serve
 * regional rules (`projects/p/regions/r/forwardingRules`) and global ones
 * (`projects/p/global/forwardingRules`, `global-forwarding-rules/`), which differ only in these.
 *
 * @example
 * ```ts
 * forwardingRuleRoutes(app, state, REGIONAL_RULES);
 * ```
 */
export interface RuleRoutesScope {
  /** The route path of the scope, without the collection (`…/regions/:region`, `…/global`). */
  readonly path: string;
  /**
   * The API's name of the collection (`compute.forwardingRules`, `compute.globalForwardingRules`):
   * the prefix of its methods in the request log and fault rules, and of its IAM permissions.
   */
  readonly resource: string;
  /** The scope a request's path names. */
  scopeOf(c: Context): ScopeRef;
  /** The domain module of the scope's rules. */
  rules(state: EmulatorState): ForwardingRules;
  /** The message a setLabels body is, as errors name it. */
  readonly setLabelsRequest: SetLabelsRequestName;
}

/**
 * The regional rules' scope.
 *
 * @example
 * ```ts
 * REGIONAL_RULES.scopeOf(c); // { project, region } of the path
 * ```
 */
export const REGIONAL_RULES: RuleRoutesScope = {
  path: REGIONAL,
  resource: 'compute.forwardingRules',
  scopeOf: regionOf,
  rules: (state) => state.forwardingRules,
  setLabelsRequest: 'RegionSetLabelsRequest',
};

/**
 * `permission` on the scope of the path: the region (`projects/p/regions/r`), or the project
 * (`projects/p`) for a global collection.
 *
 * @example
 * ```ts
 * onScope(scope, 'compute.globalForwardingRules.list');
 * ```
 */
export function onScope(scope: RuleRoutesScope, name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const where = scope.scopeOf(c);
      const resource =
        where.region === undefined
          ? `projects/${where.project}`
          : `projects/${where.project}/regions/${where.region}`;
      return { project: where.project, resource };
    },
  };
}

/**
 * `permission` on the forwarding rule the path names (`…/forwardingRules/{name}`).
 *
 * @example
 * ```ts
 * onScopedRule(scope, 'compute.globalForwardingRules.delete');
 * ```
 */
export function onScopedRule(scope: RuleRoutesScope, name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const where = scope.scopeOf(c);
      return {
        project: where.project,
        resource: scopedName(where, 'forwardingRules', c.req.param('name')!),
      };
    },
  };
}

/**
 * `target` of a call on the forwarding rule the path names, in the scope's words when missing.
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes, target: scopedRuleTarget(scope) });
 * ```
 */
export function scopedRuleTarget(scope: RuleRoutesScope): (c: Context) => PathTarget {
  return (c) => {
    const name = c.req.param('name')!;
    return { names: [name], missing: () => ruleNotFound(scope.scopeOf(c), name) };
  };
}
