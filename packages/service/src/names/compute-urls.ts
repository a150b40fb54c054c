/**
 * Compute Engine's public base URL, used in every link unless configured otherwise.
 *
 * @example
 * ```ts
 * new ComputeUrls(DEFAULT_COMPUTE_BASE_URL).project('p'); // 'https://www.googleapis.com/compute/v1/projects/p'
 * ```
 */
export const DEFAULT_COMPUTE_BASE_URL = 'https://www.googleapis.com/compute/v1/';

/**
 * Builds the URLs that appear in answers (`selfLink`, `region`, `targetLink`, …) from the
 * configured base URL, so an emulator can advertise links that point back at itself.
 *
 * @example
 * ```ts
 * new ComputeUrls('http://127.0.0.1:8787/compute/v1/').forwardingRule('p', 'us-central1', 'fr-1');
 * // 'http://127.0.0.1:8787/compute/v1/projects/p/regions/us-central1/forwardingRules/fr-1'
 * ```
 */
export class ComputeUrls {
  readonly base: string;

  constructor(base: string = DEFAULT_COMPUTE_BASE_URL) {
    this.base = base.endsWith('/') ? base : `${base}/`;
  }

  project(project: string): string {
    return `${this.base}projects/${project}`;
  }

  region(project: string, region: string): string {
    return `${this.project(project)}/regions/${region}`;
  }

  /** A region's URL, or the project's `…/global` when `region` is undefined. */
  scope(project: string, region: string | undefined): string {
    return region === undefined ? `${this.project(project)}/global` : this.region(project, region);
  }

  /** A forwarding rule's URL (regional, or global when `region` is undefined). */
  forwardingRule(project: string, region: string | undefined, nameOrId: string): string {
    return `${this.scope(project, region)}/forwardingRules/${nameOrId}`;
  }

  forwardingRules(project: string, region: string | undefined): string {
    return `${this.scope(project, region)}/forwardingRules`;
  }

  /** An operation's URL (regional, or global when `region` is undefined). */
  operation(project: string, region: string | undefined, name: string): string {
    return `${this.scope(project, region)}/operations/${name}`;
  }

  operations(project: string, region: string | undefined): string {
    return `${this.scope(project, region)}/operations`;
  }
}
