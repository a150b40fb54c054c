import type { Context } from 'hono';
import { ruleNotFound } from '../forwarding-rules/forwarding-rules.js';
import { regionalName, regionParent } from '../names/resource-names.js';
import { operationNotFound } from '../operations/operations.js';
import type { PathTarget, PermissionRule } from './api-call.js';

/** The path of a region's collections; routes append `/forwardingRules`, `/operations`, … */
export const REGIONAL = '/compute/v1/projects/:project/regions/:region';
/** The path of a project's aggregated lists. */
export const AGGREGATED = '/compute/v1/projects/:project/aggregated';

/** Scopes of Compute Engine methods that change resources. */
export const WRITE_SCOPES = ['compute', 'cloud-platform'];
/** Scopes of Compute Engine methods that only read. */
export const READ_SCOPES = ['compute.readonly', 'compute', 'cloud-platform'];

/**
 * The project and region of a regional route's path (checked by `computePathSegments`).
 *
 * @example
 * ```ts
 * await state.forwardingRules.get(regionOf(c), c.req.param('name'));
 * ```
 */
export function regionOf(c: Context): { project: string; region: string } {
  return { project: c.req.param('project')!, region: c.req.param('region')! };
}

/**
 * `permission` on the project of the path (`projects/p`).
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: READ_SCOPES, permission: onProject('compute.forwardingRules.list') });
 * ```
 */
export function onProject(name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const project = c.req.param('project')!;
      return { project, resource: `projects/${project}` };
    },
  };
}

/**
 * `permission` on the region of the path (`projects/p/regions/r`).
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: READ_SCOPES, permission: onRegion('compute.regionOperations.get') });
 * ```
 */
export function onRegion(name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const { project, region } = regionOf(c);
      return { project, resource: regionParent({ project, region }) };
    },
  };
}

/**
 * `permission` on the forwarding rule the path names (`projects/p/regions/r/forwardingRules/n`).
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: WRITE_SCOPES, permission: onRule('compute.forwardingRules.delete') });
 * ```
 */
export function onRule(name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const { project, region } = regionOf(c);
      return {
        project,
        resource: regionalName({ project, region }, 'forwardingRules', c.req.param('name')!),
      };
    },
  };
}

/**
 * `target` of a call on the forwarding rule the path names (`…/forwardingRules/{name}`).
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: READ_SCOPES, permission: onRule('compute.forwardingRules.get'), target: ruleTarget });
 * ```
 */
export function ruleTarget(c: Context): PathTarget {
  const name = c.req.param('name')!;
  return { names: [name], missing: () => ruleNotFound(regionOf(c), name) };
}

/**
 * `target` of a call on the operation the path names (`…/operations/{operation}`).
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: READ_SCOPES, permission: onRegion('compute.regionOperations.get'), target: operationTarget });
 * ```
 */
export function operationTarget(c: Context): PathTarget {
  const name = c.req.param('operation')!;
  return { names: [name], missing: () => operationNotFound(regionOf(c), name) };
}
