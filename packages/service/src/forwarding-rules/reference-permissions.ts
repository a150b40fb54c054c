import { type Principal, requirePermission } from '../auth/auth.js';
import { readReference, resourcePath } from './create/reference-paths.js';

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
    // The reader create validation uses, so the project checked is the one the stored rule
    // points into (`https://h/projects/a/x/compute/v1/projects/b/…` is in b); a malformed
    // reference is validation's 400.
    const owner = readReference(value, project);
    if (!owner || (!always && owner.project === project)) return;
    const needed = permission(owner.collection);
    if (needed) requirePermission(principal, owner.project, needed, resourcePath(owner));
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
