import type { ComputeUrls } from '../names/compute-urls.js';

/**
 * Turns a resource reference into the form Compute Engine answers with: a full URL given by the
 * client is kept as it is (whatever its host); a relative one (`projects/p/global/networks/n`,
 * `global/networks/n`, `regions/r/subnetworks/s`) becomes a full URL on the base URL.
 */
export function normalizeReference(value: string, project: string, urls: ComputeUrls): string {
  if (/^https?:\/\//i.test(value)) return value;
  const path = value.replace(/^\/+/, '');
  if (path.startsWith('projects/')) return urls.base + path;
  return `${urls.project(project)}/${path}`;
}

/**
 * The form Compute Engine answers a rule's reference field in, which is not the same for every
 * field (docs/coverage.md, "References: expanded or echoed"): `network`, `subnetwork`,
 * `backendService`, `ipCollection` and targets such as target pools and proxies come back as full
 * URLs ({@link normalizeReference}); a Private Service Connect target (a service attachment, or a
 * Google APIs bundle such as `all-apis`) comes back exactly as sent, as recorded traffic shows.
 *
 * @example
 * ```ts
 * answeredReference('target', 'projects/p/regions/r/serviceAttachments/s', 'p', urls);
 * // 'projects/p/regions/r/serviceAttachments/s'
 * ```
 */
export function answeredReference(
  field: string,
  value: string,
  project: string,
  urls: ComputeUrls,
): string {
  if (field === 'target' && (!value.includes('/') || isServiceAttachment(value))) return value;
  return normalizeReference(value, project, urls);
}

const isServiceAttachment = (value: string) =>
  parseReference(value).collection === 'serviceAttachments';

/** The parts of a reference's path after `/compute/<version>/` (or of a relative one). */
export interface ReferenceParts {
  project?: string;
  /** `global`, or the region name. */
  scope?: string;
  collection?: string;
  name?: string;
}

/** Splits a reference into project, scope (`global` or region), collection and name. */
export function parseReference(value: string): ReferenceParts {
  const path = value.replace(/^https?:\/\/[^/]+/i, '').replace(/^\/?(compute\/[^/]+\/)?/, '');
  const m = /^(?:projects\/([^/]+)\/)?(?:(global)|regions\/([^/]+))\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return {};
  return { project: m[1], scope: m[2] ?? m[3], collection: m[4], name: m[5] };
}
