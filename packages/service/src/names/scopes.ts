// The scopes Compute Engine keeps forwarding rules and operations in: a region
// (`projects/p/regions/r`) or the project's global scope (`projects/p/global`). One parent key
// for both, so every store keys, locks and lists a scope the same way whichever it is.

/**
 * A project and, for a regional resource, its region; no region is the project's global scope.
 * A region reference (`{ project, region }`) is one.
 *
 * @example
 * ```ts
 * const east: ScopeRef = { project: 'my-project', region: 'us-east1' };
 * const global: ScopeRef = { project: 'my-project' };
 * ```
 */
export interface ScopeRef {
  readonly project: string;
  /** The region; absent for the global scope. */
  readonly region?: string;
}

/**
 * `projects/p/regions/r`, or `projects/p/global`: a scope as keys, locks and errors name it.
 *
 * @example
 * ```ts
 * scopeParent({ project: 'p', region: 'us-east1' }); // 'projects/p/regions/us-east1'
 * scopeParent({ project: 'p' }); // 'projects/p/global'
 * ```
 */
export const scopeParent = (scope: ScopeRef): string =>
  scope.region === undefined
    ? `projects/${scope.project}/global`
    : `projects/${scope.project}/regions/${scope.region}`;

/**
 * `projects/p/regions/r/{collection}/{name}` or `projects/p/global/{collection}/{name}`: a
 * resource as Compute Engine names it in errors and IAM checks.
 *
 * @example
 * ```ts
 * scopedName({ project: 'p' }, 'forwardingRules', 'web'); // 'projects/p/global/forwardingRules/web'
 * ```
 */
export const scopedName = (scope: ScopeRef, collection: string, name: string): string =>
  `${scopeParent(scope)}/${collection}/${name}`;

/**
 * The scope of a parent key ({@link scopeParent}'s inverse).
 *
 * @example
 * ```ts
 * scopeOf('projects/p/global'); // { project: 'p' }
 * scopeOf('projects/p/regions/r'); // { project: 'p', region: 'r' }
 * ```
 */
export function scopeOf(parent: string): ScopeRef {
  const [, project = '', kind, region = ''] = parent.split('/');
  return kind === 'global' ? { project } : { project, region };
}

/**
 * The same scope, with `region` present only when it is regional (a copy holding nothing else).
 *
 * @example
 * ```ts
 * scopeRef({ project: 'p', region: undefined, rule }); // { project: 'p' }
 * ```
 */
export const scopeRef = (scope: ScopeRef): ScopeRef =>
  scope.region === undefined
    ? { project: scope.project }
    : { project: scope.project, region: scope.region };
