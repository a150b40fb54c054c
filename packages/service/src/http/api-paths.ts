/**
 * Whether a path is Android Publisher's: under `/androidpublisher/`, or the spec's `/publisher/`
 * alias.
 *
 * @example
 * ```ts
 * isPublisherPath('/androidpublisher/v3/applications/a/orders/o:refund'); // true
 * ```
 */
export function isPublisherPath(path: string): boolean {
  return path.startsWith('/androidpublisher/') || path.startsWith('/publisher/');
}

/**
 * Whether a path is one of the emulated Google APIs' (Compute Engine's or Android
 * Publisher's), as opposed to listkit's own pages and control plane.
 *
 * @example
 * ```ts
 * isGoogleApiPath('/compute/v1/projects/p/regions/r/forwardingRules'); // true
 * isGoogleApiPath('/_listkit/state'); // false
 * ```
 */
export function isGoogleApiPath(path: string): boolean {
  return path.startsWith('/compute/') || isPublisherPath(path);
}
