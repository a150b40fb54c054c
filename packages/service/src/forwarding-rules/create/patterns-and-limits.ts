import { LABEL_LIMITS } from '../labels.js';

/** The limits create enforces (spec §8, and the real API's where the spec is silent). */
export const FORWARDING_RULE_LIMITS = {
  name: 63,
  /** A Private Service Connect rule to a Google APIs bundle. */
  pscGoogleApisName: 20,
  serviceLabel: 63,
  /** The real API's limit on `ports[]` ("up to five ports"). */
  ports: 5,
  sourceIpRanges: 64,
  filterLabels: 64,
  filterLabelName: 1024,
  filterLabelValue: 1024,
  serviceDirectoryRegistrations: 1,
  labels: LABEL_LIMITS.labels,
  labelKey: LABEL_LIMITS.key,
  labelValue: LABEL_LIMITS.value,
  migrationPercentage: { min: 0, max: 100 },
  /**
   * Every string field not bounded more narrowly (description, references, output-only text):
   * Compute publishes no limit for them; 2048 characters holds any resource URL and a paragraph
   * of description, and keeps a regex filter over 500 rules cheap (docs/coverage.md).
   */
  text: 2048,
} as const;

/** The Google APIs bundles a Private Service Connect rule may target (not a resource URL). */
export const GOOGLE_APIS_BUNDLES: readonly string[] = ['all-apis', 'vpc-sc'];

/**
 * Whether a rule's target names a Google APIs bundle (a Private Service Connect endpoint to
 * Google APIs).
 *
 * @example
 * ```ts
 * isGoogleApisTarget('all-apis'); // true
 * ```
 */
export function isGoogleApisTarget(target: unknown): boolean {
  return typeof target === 'string' && GOOGLE_APIS_BUNDLES.includes(target);
}

/** The region Service Directory registrations of PSC rules to Google APIs default to. */
export const DEFAULT_SERVICE_DIRECTORY_REGION = 'us-central1';

export const NAME_PATTERN = '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)';
export const PSC_GOOGLE_APIS_NAME_PATTERN = '(?:[a-z][a-z0-9]{0,19})';
export const RFC1035 = new RegExp(`^${NAME_PATTERN}$`);
export const PSC_GOOGLE_APIS_NAME = new RegExp(`^${PSC_GOOGLE_APIS_NAME_PATTERN}$`);
/** A project id (`my-project`, a domain-scoped `example.com:my-project`) or number. */
const PROJECT_SEGMENT = /^(?:(?:[a-z][-a-z0-9.]*[a-z0-9]:)?[a-z](?:[-a-z0-9]*[a-z0-9])?|\d+)$/;
/** A collection of a resource URL (`targetPools`, `serviceAttachments`). */
const COLLECTION_SEGMENT = /^[a-z][a-zA-Z]*$/;

/**
 * Whether every segment of a reference follows Compute's naming rule: the resource's name and
 * its region or zone are names (`[a-z]([-a-z0-9]*[a-z0-9])?`, at most 63 characters), the
 * project a project id or number, the collection a word. Compute refuses any other reference
 * as malformed (`T_T!`, `a b`, a name holding U+FFFF).
 *
 * @example
 * ```ts
 * wellFormedReference({ project: 'p', scope: 'regions', location: 'us-east1', collection: 'targetPools', name: 'T_T!' }); // false
 * ```
 */
export function wellFormedReference(ref: {
  project: string;
  location: string;
  collection: string;
  name: string;
}): boolean {
  return (
    RFC1035.test(ref.name) &&
    (ref.location === '' || RFC1035.test(ref.location)) &&
    COLLECTION_SEGMENT.test(ref.collection) &&
    PROJECT_SEGMENT.test(ref.project)
  );
}

export const PORT_RANGE = /^(\d+)(?:-(\d+))?$/;
export const REGION_NAME = /^[a-z]+(?:-[a-z]+)*\d+$/;
