// The one home of the relative resource names Compute Engine uses in errors, IAM checks, store
// keys and page-token bindings (`projects/p/regions/r/forwardingRules/n`). Absolute links in
// answers (`selfLink`, …) are built by `ComputeUrls` beside this file.

/**
 * A project and region: the parent of forwarding rules and regional operations.
 *
 * @example
 * ```ts
 * const east: RegionRef = { project: 'my-project', region: 'us-east1' };
 * ```
 */
export interface RegionRef {
  readonly project: string;
  readonly region: string;
}

/** The regional collections the emulator serves. */
export type RegionalCollection = 'forwardingRules' | 'operations' | 'addresses';

/**
 * `projects/p/regions/r`, as list bindings and keys name a region.
 *
 * @example
 * ```ts
 * regionParent({ project: 'p', region: 'us-east1' }); // 'projects/p/regions/us-east1'
 * ```
 */
export const regionParent = (parent: RegionRef) =>
  `projects/${parent.project}/regions/${parent.region}`;

/**
 * `{ project, region }` of a `projects/p/regions/r` parent (the inverse of {@link regionParent}).
 *
 * @example
 * ```ts
 * regionRefOf('projects/p/regions/us-east1'); // { project: 'p', region: 'us-east1' }
 * ```
 */
export function regionRefOf(parent: string): RegionRef {
  const [, project = '', , region = ''] = parent.split('/');
  return { project, region };
}

/**
 * `projects/p/regions/r/{collection}/{name}`: a regional resource, as Compute Engine names it in
 * errors and IAM checks.
 *
 * @example
 * ```ts
 * regionalName({ project: 'p', region: 'r' }, 'forwardingRules', 'web-1');
 * // 'projects/p/regions/r/forwardingRules/web-1'
 * ```
 */
export const regionalName = (parent: RegionRef, collection: RegionalCollection, name: string) =>
  `${regionalCollectionName(parent, collection)}/${name}`;

/**
 * `projects/p/regions/r/{collection}`: a regional collection, as list answers give their `id`.
 *
 * @example
 * ```ts
 * regionalCollectionName({ project: 'p', region: 'r' }, 'operations'); // 'projects/p/regions/r/operations'
 * ```
 */
export const regionalCollectionName = (parent: RegionRef, collection: RegionalCollection) =>
  `${regionParent(parent)}/${collection}`;

/**
 * The parent bound into a list's page tokens: the collection, not only its region, so that a
 * forwarding-rules token is refused by the operations list of the same region (as the routes do).
 *
 * @example
 * ```ts
 * tokenParent({ project: 'p', region: 'r' }, 'operations'); // 'projects/p/regions/r/operations'
 * ```
 */
export const tokenParent = (parent: ScopeRef, collection: 'forwardingRules' | 'operations') =>
  scopedCollectionName(parent, collection);

/**
 * The parent bound into the aggregated list's page tokens.
 *
 * @example
 * ```ts
 * aggregatedTokenParent('p'); // 'projects/p/aggregated/forwardingRules'
 * ```
 */
export const aggregatedTokenParent = (project: string) =>
  `projects/${project}/aggregated/forwardingRules`;

/**
 * A project and, for a regional resource, its region; no region is the project's global scope
 * (`projects/p/global`), where global forwarding rules and global operations live. A
 * {@link RegionRef} is one.
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
 * `projects/p/regions/r`, or `projects/p/global`: a scope as store keys, locks and errors name
 * it; the same stores keep both scopes under it.
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
 * `{ project, region }` of a `projects/p/regions/r` parent, `{ project }` of `projects/p/global`
 * (the inverse of {@link scopeParent}).
 *
 * @example
 * ```ts
 * scopeRefOf('projects/p/global'); // { project: 'p' }
 * ```
 */
export function scopeRefOf(parent: string): ScopeRef {
  const [, project = '', kind, region = ''] = parent.split('/');
  return kind === 'global' ? { project } : { project, region };
}

/**
 * `projects/p/regions/r/{collection}/{name}` or `projects/p/global/{collection}/{name}`: a
 * resource of a scope, as Compute Engine names it in errors and IAM checks.
 *
 * @example
 * ```ts
 * scopedName({ project: 'p' }, 'forwardingRules', 'web'); // 'projects/p/global/forwardingRules/web'
 * ```
 */
export const scopedName = (scope: ScopeRef, collection: RegionalCollection, name: string) =>
  `${scopedCollectionName(scope, collection)}/${name}`;

/**
 * `projects/p/regions/r/{collection}` or `projects/p/global/{collection}`: a scope's collection,
 * as list answers name it (`id`) and page tokens are bound to it.
 *
 * @example
 * ```ts
 * scopedCollectionName({ project: 'p' }, 'operations'); // 'projects/p/global/operations'
 * ```
 */
export const scopedCollectionName = (scope: ScopeRef, collection: RegionalCollection) =>
  `${scopeParent(scope)}/${collection}`;
