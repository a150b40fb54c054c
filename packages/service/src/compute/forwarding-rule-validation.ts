import { errors } from '../http/api-error.js';
import type { ComputeUrls } from './compute-urls.js';
import { FORWARDING_RULE_ENUMS } from './forwarding-rule-schema.js';
import { normalizeReference } from './references.js';
import type { ForwardingRuleJson } from './sample-forwarding-rules.js';

/** What create validation needs to know besides the body. */
export interface InsertContext {
  project: string;
  region: string;
  urls: ComputeUrls;
  /** The rules already in this project and region (for clash rules). */
  existing: readonly ForwardingRuleJson[];
}

/** Fields the server sets; a client may send them, and they are ignored (as Compute does). */
export const OUTPUT_ONLY_FIELDS = new Set([
  'kind',
  'id',
  'creationTimestamp',
  'selfLink',
  'selfLinkWithId',
  'serviceName',
  'pscConnectionId',
  'pscConnectionStatus',
  'baseForwardingRule',
  'attachedExtensions',
  'labelFingerprint',
  'fingerprint',
]);

/** Fields a client may set on create. */
export const CLIENT_FIELDS = new Set([
  'name',
  'description',
  'region',
  'IPAddress',
  'IPProtocol',
  'portRange',
  'ports',
  'allPorts',
  'target',
  'backendService',
  'loadBalancingScheme',
  'subnetwork',
  'network',
  'serviceDirectoryRegistrations',
  'serviceLabel',
  'networkTier',
  'labels',
  'ipVersion',
  'allowGlobalAccess',
  'metadataFilters',
  'isMirroringCollector',
  'sourceIpRanges',
  'allowPscGlobalAccess',
  'noAutomateDnsZone',
  'ipCollection',
  'externalManagedBackendBucketMigrationState',
  'externalManagedBackendBucketMigrationTestingPercentage',
]);

const RFC1035 = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const PORT_RANGE = /^(\d+)(?:-(\d+))?$/;

const invalidValue = (field: string, value: unknown, why: string) =>
  errors.invalid(
    `Invalid value for field 'resource.${field}': '${display(value)}'. ${why}`,
    `resource.${field}`,
  );

function display(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Validates an insert body and returns the client part of the new rule, normalised the way
 * Compute Engine answers it (defaults filled, references as full URLs, `portRange: "90"` as
 * `"90-90"`, false booleans omitted, labels dropped: they are set through setLabels).
 * Throws an {@link ApiError} (400) naming the field for anything the real API rejects.
 */
export function prepareForwardingRule(body: unknown, ctx: InsertContext): ForwardingRuleJson {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.badRequest(
      'Invalid JSON payload received. The request body must be a ForwardingRule object.',
    );
  }
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!CLIENT_FIELDS.has(key) && !OUTPUT_ONLY_FIELDS.has(key)) {
      throw errors.badRequest(
        `Invalid JSON payload received. Unknown name "${key}" at 'resource': Cannot find field.`,
      );
    }
  }
  const rule: Record<string, unknown> = {};
  const text = (field: string): string | undefined => {
    const value = input[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw invalidValue(field, value, 'Must be a string.');
    return value;
  };
  const bool = (field: string): boolean | undefined => {
    const value = input[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw invalidValue(field, value, 'Must be a boolean.');
    return value;
  };
  const enumValue = (field: string, values: readonly string[]): string | undefined => {
    const value = text(field);
    if (value !== undefined && !values.includes(value)) {
      throw invalidValue(field, value, `Must be one of [${values.join(', ')}].`);
    }
    return value;
  };

  const name = text('name');
  if (name === undefined || name === '') {
    throw errors.invalid(
      "Invalid value for field 'resource.name': ''. Must be a match of regex '[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?'",
      'resource.name',
    );
  }
  if (!RFC1035.test(name)) {
    throw invalidValue(
      'name',
      name,
      "Must be a match of regex '[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?'",
    );
  }
  rule.name = name;

  const region = text('region');
  if (region !== undefined && region !== '' && region.split('/').pop() !== ctx.region) {
    throw invalidValue('region', region, `The region of the request path is '${ctx.region}'.`);
  }

  rule.description = text('description') ?? '';
  rule.IPProtocol = enumValue('IPProtocol', FORWARDING_RULE_ENUMS.IPProtocol) ?? 'TCP';
  const scheme = enumValue('loadBalancingScheme', FORWARDING_RULE_ENUMS.loadBalancingScheme);
  rule.loadBalancingScheme = scheme ?? 'EXTERNAL';
  const tier = enumValue('networkTier', ['PREMIUM', 'STANDARD']);
  rule.networkTier = tier ?? 'PREMIUM';
  const ipVersion = enumValue('ipVersion', FORWARDING_RULE_ENUMS.ipVersion);
  if (ipVersion) rule.ipVersion = ipVersion;

  const portRange = text('portRange');
  if (portRange !== undefined) rule.portRange = normalizePortRange('portRange', portRange);

  const address = text('IPAddress');
  if (address) rule.IPAddress = address;

  for (const field of ['target', 'backendService', 'network', 'subnetwork', 'ipCollection']) {
    const value = text(field);
    if (value) rule[field] = normalizeReference(value, ctx.project, ctx.urls);
  }
  for (const field of [
    'allPorts',
    'allowGlobalAccess',
    'isMirroringCollector',
    'allowPscGlobalAccess',
    'noAutomateDnsZone',
  ]) {
    // proto3 JSON: a false boolean is the default and is omitted from answers.
    if (bool(field) === true) rule[field] = true;
  }
  return rule as ForwardingRuleJson;
}

/** Checks `portRange`/`ports[]` syntax and range; a single port `90` becomes `90-90`. */
export function normalizePortRange(field: string, value: string): string {
  const m = PORT_RANGE.exec(value);
  const low = Number(m?.[1]);
  const high = m?.[2] === undefined ? low : Number(m[2]);
  if (!m || low < 1 || high > 65535 || low > high) {
    throw invalidValue(
      field,
      value,
      'Must be a port or a port range such as 80 or 8080-8090, within 1-65535.',
    );
  }
  return `${low}-${high}`;
}
