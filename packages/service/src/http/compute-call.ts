import type { Context } from 'hono';
import type { ScopeRef } from '../names/resource-names.js';
import type { PermissionRule } from './api-call.js';

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
 * `permission` on the scope a path names (`scopeOf`): its region (`projects/p/regions/r`), or its
 * project (`projects/p`) for a global collection.
 *
 * @example
 * ```ts
 * apiCall(state, { method, scopes: READ_SCOPES, permission: onScopeOf(globalOf, 'compute.globalOperations.list') });
 * ```
 */
export function onScopeOf(scopeOf: (c: Context) => ScopeRef, name: string): PermissionRule {
  return {
    name,
    on: (c) => {
      const { project, region } = scopeOf(c);
      const resource =
        region === undefined ? `projects/${project}` : `projects/${project}/regions/${region}`;
      return { project, resource };
    },
  };
}

/** The query parameters of Compute Engine's list methods (the request message's fields). */
export const LIST_PARAMETERS = [
  'filter',
  'maxResults',
  'orderBy',
  'pageToken',
  'returnPartialSuccess',
] as const;

/** The query parameters of an aggregated list: a list's, and which scopes to include. */
export const AGGREGATED_LIST_PARAMETERS = [
  ...LIST_PARAMETERS,
  'includeAllScopes',
  'serviceProjectNumber',
] as const;

/** The query parameter of Compute Engine's methods that change a resource. */
export const WRITE_PARAMETERS = ['requestId'] as const;
