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

  forwardingRule(project: string, region: string, nameOrId: string): string {
    return `${this.region(project, region)}/forwardingRules/${nameOrId}`;
  }

  forwardingRules(project: string, region: string): string {
    return `${this.region(project, region)}/forwardingRules`;
  }

  operation(project: string, region: string, name: string): string {
    return `${this.region(project, region)}/operations/${name}`;
  }

  operations(project: string, region: string): string {
    return `${this.region(project, region)}/operations`;
  }
}
