import { type Principal, requirePermission } from '../auth/auth.js';

/**
 * The IAM permission that lets a forwarding rule point at a target of each collection (a regional
 * rule's targets; Compute's `compute.<collection>.use`). Service attachments need none: a
 * Private Service Connect consumer never holds rights in the producer's project; the producer
 * accepts or rejects the connection instead.
 */
const TARGET_USE: Readonly<Record<string, string>> = {
  targetPools: 'compute.targetPools.use',
  targetInstances: 'compute.targetInstances.use',
  targetVpnGateways: 'compute.targetVpnGateways.use',
  targetHttpProxies: 'compute.regionTargetHttpProxies.use',
  targetHttpsProxies: 'compute.regionTargetHttpsProxies.use',
  targetTcpProxies: 'compute.regionTargetTcpProxies.use',
};

/** The project and collection a reference names (`projects/P/…/C/name`, URL or relative). */
function ownerOf(reference: string, project: string): { project: string; collection?: string } {
  const path = reference.replace(/^https?:\/\/[^/]+/i, '');
  const owner = /(?:^|\/)projects\/([^/]+)\//.exec(path)?.[1] ?? project;
  const collection = /\/?([^/]+)\/[^/]+\/?$/.exec(path)?.[1];
  return { project: owner, ...(collection ? { collection } : {}) };
}

/**
 * Checks the `.use` permission of every resource a rule body references, in the project that
 * owns it (403 `forbidden` naming the permission and the resource): `network`
 * (`compute.networks.use`) and `subnetwork` (`compute.subnetworks.use`) always; `target` and
 * `backendService` (`compute.regionBackendServices.use`) when they point into another project
 * than the rule's, since a rule in one project must not borrow another project's resources.
 *
 * @example
 * ```ts
 * requireReferencePermissions(principal, 'proj-a', { target: 'projects/proj-b/regions/r/targetPools/t' });
 * // 403: Required 'compute.targetPools.use' permission for 'projects/proj-b/regions/r/targetPools/t'
 * ```
 */
export function requireReferencePermissions(
  principal: Principal,
  project: string,
  body: Readonly<Record<string, unknown>>,
): void {
  const check = (
    field: string,
    permission: (collection?: string) => string | undefined,
    always: boolean,
  ) => {
    const value = body[field];
    if (typeof value !== 'string' || value === '' || !value.includes('/')) return;
    const owner = ownerOf(value, project);
    if (!always && owner.project === project) return;
    const needed = permission(owner.collection);
    if (needed)
      requirePermission(principal, owner.project, needed, resourcePath(value, owner.project));
  };
  check('network', () => 'compute.networks.use', true);
  check('subnetwork', () => 'compute.subnetworks.use', true);
  check(
    'target',
    (collection) =>
      collection && Object.hasOwn(TARGET_USE, collection) ? TARGET_USE[collection] : undefined,
    false,
  );
  check('backendService', () => 'compute.regionBackendServices.use', false);
}

/** A reference as a resource name (`projects/p/global/networks/n`) for the 403. */
function resourcePath(reference: string, project: string): string {
  const path = reference.replace(/^https?:\/\/[^/]+/i, '').replace(/^\/+/, '');
  const at = path.indexOf('projects/');
  return at >= 0 ? path.slice(at) : `projects/${project}/${path}`;
}
