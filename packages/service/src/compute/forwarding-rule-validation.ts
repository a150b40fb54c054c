import { ApiError, errors } from '../http/api-error.js';
import { isRfc3339 } from '../rfc3339.js';
import type { ComputeUrls } from './compute-urls.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import { FORWARDING_RULE_ENUMS } from './forwarding-rule-schema.js';
import { canonicalAddress, type IpRange, parseRange, rangesOverlap } from './ip-addresses.js';
import { checkLabels, LABEL_LIMITS } from './labels.js';
import { MIGRATION_TRANSITIONS } from './migration-state-machine.js';
import { answeredReference } from './references.js';
import { previewText, previewValue } from './value-preview.js';

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

/** The region Service Directory registrations of PSC rules to Google APIs default to. */
export const DEFAULT_SERVICE_DIRECTORY_REGION = 'us-central1';

const NAME_PATTERN = '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)';
const PSC_GOOGLE_APIS_NAME_PATTERN = '(?:[a-z][a-z0-9]{0,19})';
const RFC1035 = new RegExp(`^${NAME_PATTERN}$`);
const PSC_GOOGLE_APIS_NAME = new RegExp(`^${PSC_GOOGLE_APIS_NAME_PATTERN}$`);
const PORT_RANGE = /^(\d+)(?:-(\d+))?$/;
const REGION_NAME = /^[a-z]+(?:-[a-z]+)*\d+$/;

type Scheme = 'EXTERNAL' | 'EXTERNAL_MANAGED' | 'INTERNAL' | 'INTERNAL_MANAGED';
/** The schemes a regional rule may have; `PSC` stands for a Private Service Connect rule (no scheme). */
type Kind = Scheme | 'PSC';

/** The target collections a regional rule may point at, with the schemes that may use them. */
const TARGET_TYPES: Record<string, { type: string; scope: Scope; kinds: readonly Kind[] }> = {
  targetPools: { type: 'TARGET_POOL', scope: 'regions', kinds: ['EXTERNAL'] },
  targetInstances: { type: 'TARGET_INSTANCE', scope: 'zones', kinds: ['EXTERNAL', 'INTERNAL'] },
  targetVpnGateways: { type: 'TARGET_VPN_GATEWAY', scope: 'regions', kinds: ['EXTERNAL'] },
  targetHttpProxies: {
    type: 'TARGET_HTTP_PROXY',
    scope: 'regions',
    kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
  },
  targetHttpsProxies: {
    type: 'TARGET_HTTPS_PROXY',
    scope: 'regions',
    kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
  },
  targetTcpProxies: {
    type: 'TARGET_TCP_PROXY',
    scope: 'regions',
    kinds: ['EXTERNAL_MANAGED', 'INTERNAL_MANAGED'],
  },
  serviceAttachments: { type: 'SERVICE_ATTACHMENT', scope: 'regions', kinds: ['PSC'] },
  targetSslProxies: { type: 'TARGET_SSL_PROXY', scope: 'global', kinds: [] },
  targetGrpcProxies: { type: 'TARGET_GRPC_PROXY', scope: 'global', kinds: [] },
};

/** The protocols each kind of rule accepts (load balancing features, per product). */
const PROTOCOLS: Record<Kind, readonly string[] | 'any'> = {
  EXTERNAL: 'any',
  INTERNAL: ['TCP', 'UDP', 'L3_DEFAULT'],
  EXTERNAL_MANAGED: ['TCP'],
  INTERNAL_MANAGED: ['TCP'],
  PSC: 'any',
};
const PORT_PROTOCOLS = ['TCP', 'UDP', 'SCTP'];

// ---------------------------------------------------------------------------------------------
// Errors, in Compute Engine's words
// ---------------------------------------------------------------------------------------------

/** `Invalid value for field 'resource.<field>': '<value>'. <why>` (400 invalid). */
const invalid = (field: string, value: unknown, why: string) =>
  errors.invalid(
    `Invalid value for field 'resource.${field}': '${display(value)}'. ${why}`,
    `resource.${field}`,
  );

/** `Required field 'resource.<field>' not specified` (400 required). */
const required = (field: string) =>
  new ApiError(400, 'required', `Required field 'resource.${field}' not specified`, {
    location: `resource.${field}`,
  });

/** A JSON value of the wrong type, as Google's JSON front end words it (400 invalid). */
const wrongType = (path: string, protoType: string, value: unknown) =>
  errors.invalid(`Invalid value at '${path}' (${protoType}), ${previewValue(value)}`, path);

const unknownName = (key: string, path: string) =>
  errors.badRequest(
    `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`,
  );

/** Compute shows scalars as they are (long text cut short) and lists or objects as `''`. */
function display(value: unknown): string {
  if (typeof value === 'string') return previewText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

// ---------------------------------------------------------------------------------------------
// The body's JSON shape (proto3 JSON: null means unset; unknown names and wrong types are 400)
// ---------------------------------------------------------------------------------------------

type Scalar = 'string' | 'enum' | 'bool' | 'uint64' | 'float';
interface MessageShape {
  readonly [field: string]: Shape;
}
type Shape =
  | Scalar
  | { readonly repeated: Scalar | { readonly message: MessageShape } }
  | { readonly map: 'string' }
  | { readonly message: MessageShape };

const RESOURCE: MessageShape = {
  kind: 'string',
  id: 'uint64',
  creationTimestamp: 'string',
  name: 'string',
  description: 'string',
  region: 'string',
  IPAddress: 'string',
  IPProtocol: 'enum',
  portRange: 'string',
  ports: { repeated: 'string' },
  allPorts: 'bool',
  target: 'string',
  backendService: 'string',
  selfLink: 'string',
  selfLinkWithId: 'string',
  loadBalancingScheme: 'enum',
  subnetwork: 'string',
  network: 'string',
  serviceDirectoryRegistrations: {
    repeated: {
      message: { namespace: 'string', service: 'string', serviceDirectoryRegion: 'string' },
    },
  },
  serviceLabel: 'string',
  serviceName: 'string',
  networkTier: 'enum',
  labels: { map: 'string' },
  labelFingerprint: 'string',
  attachedExtensions: { repeated: { message: { reference: 'string' } } },
  ipVersion: 'enum',
  fingerprint: 'string',
  allowGlobalAccess: 'bool',
  metadataFilters: {
    repeated: {
      message: {
        filterMatchCriteria: 'enum',
        filterLabels: { repeated: { message: { name: 'string', value: 'string' } } },
      },
    },
  },
  isMirroringCollector: 'bool',
  sourceIpRanges: { repeated: 'string' },
  pscConnectionId: 'uint64',
  pscConnectionStatus: 'enum',
  baseForwardingRule: 'string',
  allowPscGlobalAccess: 'bool',
  noAutomateDnsZone: 'bool',
  ipCollection: 'string',
  externalManagedBackendBucketMigrationState: 'enum',
  externalManagedBackendBucketMigrationTestingPercentage: 'float',
};

const PROTO_TYPES: Record<Scalar, string> = {
  string: 'TYPE_STRING',
  enum: 'TYPE_ENUM',
  bool: 'TYPE_BOOL',
  uint64: 'TYPE_UINT64',
  float: 'TYPE_FLOAT',
};

function parseMessage(value: unknown, shape: MessageShape, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw wrongType(path, 'TYPE_MESSAGE', value);
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const fieldShape = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!fieldShape) throw unknownName(key, path);
    const parsed = parseValue(raw, fieldShape, `${path}.${key}`);
    if (parsed !== undefined) out[key] = parsed;
  }
  return out;
}

function parseValue(raw: unknown, shape: Shape, path: string): unknown {
  if (raw === null) return undefined;
  if (typeof shape === 'string') return parseScalar(raw, shape, path);
  if ('repeated' in shape) {
    const item = shape.repeated;
    if (!Array.isArray(raw)) {
      throw wrongType(path, typeof item === 'string' ? PROTO_TYPES[item] : 'TYPE_MESSAGE', raw);
    }
    return raw.map((element, i) =>
      typeof item === 'string'
        ? parseScalar(element, item, `${path}[${i}]`)
        : parseMessage(element, item.message, `${path}[${i}]`),
    );
  }
  if ('map' in shape) {
    if (typeof raw !== 'object' || Array.isArray(raw)) throw wrongType(path, 'TYPE_MESSAGE', raw);
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== 'string') {
        throw wrongType(`${path}.${previewText(key)}`, 'TYPE_STRING', value);
      }
    }
    return raw;
  }
  return parseMessage(raw, shape.message, path);
}

function parseScalar(raw: unknown, type: Scalar, path: string): unknown {
  switch (type) {
    case 'string':
    case 'enum':
      if (typeof raw === 'string') return boundedText(raw, path);
      break;
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      break;
    case 'uint64':
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return String(raw);
      if (typeof raw === 'string' && /^\d+$/.test(raw)) return raw;
      break;
    case 'float':
      // proto3 JSON: a number, or a string holding one ("NaN" and "Infinity" included).
      if (typeof raw === 'number') return raw;
      if (typeof raw === 'string' && raw.trim() !== '') {
        const n = Number(raw);
        if (!Number.isNaN(n) || raw === 'NaN') return n;
      }
      break;
  }
  throw wrongType(path, PROTO_TYPES[type], raw);
}

/** Refuses text longer than {@link FORWARDING_RULE_LIMITS}.text characters (code points). */
function boundedText(text: string, path: string): string {
  const limit = FORWARDING_RULE_LIMITS.text;
  if (text.length <= limit) return text; // a UTF-16 length bounds the count of code points
  let count = 0;
  for (const _ of text) if (++count > limit) break;
  if (count <= limit) return text;
  throw errors.invalid(
    `Invalid value for field '${path}': '${previewText(text)}'. Must be at most ${limit} characters long.`,
    path,
  );
}

/**
 * Checks a forwarding rule's JSON shape (proto3 JSON: known names, value types, bounded text)
 * and returns it with `null`s dropped and uint64 numbers as strings. Patch and seed run it too.
 */
export function parseForwardingRuleShape(body: unknown): Record<string, unknown> {
  return parseMessage(body, RESOURCE, 'resource');
}

/**
 * Checks a rule given whole (a seed), as the API would have stored it: its shape, and the rules
 * of each field on its own (name, enum values, labels, a literal IPAddress, an RFC 3339
 * creationTimestamp). Rules between fields are not applied: a seed describes a state, as a
 * snapshot of a real project would. Returns the rule with `null`s dropped and uint64s as strings.
 */
export function checkSeededForwardingRule(rule: unknown): ForwardingRuleJson {
  const input = parseForwardingRuleShape(rule);
  const name = input.name;
  if (typeof name !== 'string' || name === '') throw required('name');
  if (!RFC1035.test(name))
    throw invalid('name', name, `Must be a match of regex '${NAME_PATTERN}'`);
  for (const [field, values] of Object.entries(FORWARDING_RULE_ENUMS)) {
    const value = input[field];
    if (
      typeof value === 'string' &&
      value !== '' &&
      !(values as readonly string[]).includes(value)
    ) {
      throw invalid(field, value, `Must be one of [${values.join(', ')}].`);
    }
  }
  if (typeof input.IPAddress === 'string' && canonicalAddress(input.IPAddress) === undefined) {
    throw invalid('IPAddress', input.IPAddress, 'Must be a literal IP address.');
  }
  const created = input.creationTimestamp;
  if (typeof created === 'string' && !isRfc3339(created)) {
    throw invalid('creationTimestamp', created, 'Must be an RFC 3339 timestamp.');
  }
  checkLabels((input.labels as Record<string, string> | undefined) ?? {}, 'resource.labels');
  return input as ForwardingRuleJson;
}

// ---------------------------------------------------------------------------------------------
// References (`https://…/compute/v1/projects/p/regions/r/targetPools/x`, `regions/r/…`, …)
// ---------------------------------------------------------------------------------------------

type Scope = 'global' | 'regions' | 'zones';

interface Reference {
  project: string;
  scope: Scope;
  /** The region or zone name; '' for global resources. */
  location: string;
  collection: string;
  name: string;
}

const REFERENCE_PATH =
  /^(?:projects\/([^/]+)\/)?(?:(global)|regions\/([^/]+)|zones\/([^/]+))\/([^/]+)\/([^/]+)$/;

/** Reads a resource reference; undefined when it is not one ("The URL is malformed"). */
function readReference(value: string, project: string): Reference | undefined {
  let path: string;
  if (/^https?:\/\//i.test(value)) {
    const m = /^https?:\/\/[^/]+\/(?:[^?#]*?\/)?(projects\/[^?#]*)$/i.exec(value);
    if (!m) return undefined;
    path = m[1]!;
  } else {
    path = value.replace(/^\/+/, '');
  }
  const m = REFERENCE_PATH.exec(path);
  if (!m) return undefined;
  const scope: Scope = m[2] ? 'global' : m[3] ? 'regions' : 'zones';
  return {
    project: m[1] ?? project,
    scope,
    location: m[3] ?? m[4] ?? '',
    collection: m[5]!,
    name: m[6]!,
  };
}

/** The region of a regional or zonal reference (`us-central1-a` → `us-central1`). */
function regionOf(ref: Reference): string | undefined {
  if (ref.scope === 'regions') return ref.location;
  if (ref.scope === 'zones') return ref.location.replace(/-[a-z]+$/, '');
  return undefined;
}

const resourcePath = (ref: Reference) =>
  `projects/${ref.project}/${ref.scope === 'global' ? 'global' : `${ref.scope}/${ref.location}`}/${ref.collection}/${ref.name}`;

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

type PortSpan = readonly [number, number];

function parseSpan(value: string): PortSpan | undefined {
  const m = PORT_RANGE.exec(value);
  if (!m) return undefined;
  const low = Number(m[1]);
  const high = m[2] === undefined ? low : Number(m[2]);
  if (low < 1 || high > 65535 || low > high) return undefined;
  return [low, high];
}

/** Checks `portRange`/`ports[]` syntax and range; a single port `90` becomes `90-90`. */
export function normalizePortRange(field: string, value: string): string {
  const m = PORT_RANGE.exec(value);
  if (!m) {
    throw invalid(
      field,
      value,
      "Must be a port or a port range matching '\\d+(?:-\\d+)?', such as 80 or 8080-8090.",
    );
  }
  const span = parseSpan(value);
  if (!span) {
    const low = Number(m[1]);
    const high = m[2] === undefined ? low : Number(m[2]);
    throw invalid(
      field,
      value,
      low > high
        ? `The first port (${low}) must not be greater than the last (${high}).`
        : 'Ports must be within 1-65535.',
    );
  }
  return `${span[0]}-${span[1]}`;
}

/** The ports a rule forwards: its portRange or ports, or every port. */
function portsOf(rule: Record<string, unknown>): PortSpan[] | 'all' {
  if (rule.allPorts === true) return 'all';
  const spans: PortSpan[] = [];
  const add = (value: unknown) => {
    const span = typeof value === 'string' ? parseSpan(value) : undefined;
    if (span) spans.push(span);
  };
  add(rule.portRange);
  if (Array.isArray(rule.ports)) rule.ports.forEach(add);
  return spans.length > 0 ? spans : 'all';
}

function portsOverlap(a: PortSpan[] | 'all', b: PortSpan[] | 'all'): boolean {
  if (a === 'all' || b === 'all') return true;
  return a.some(([lo, hi]) => b.some(([lo2, hi2]) => lo <= hi2 && lo2 <= hi));
}

const portsKey = (ports: PortSpan[] | 'all') =>
  ports === 'all'
    ? 'all'
    : ports
        .map(([lo, hi]) => `${lo}-${hi}`)
        .sort()
        .join(',');

// ---------------------------------------------------------------------------------------------
// The clash rule
// ---------------------------------------------------------------------------------------------

/** The kind of a stored rule (a rule without a scheme is EXTERNAL unless it targets PSC). */
function kindOf(rule: Record<string, unknown>, project: string): Kind {
  const scheme = rule.loadBalancingScheme;
  if (typeof scheme === 'string' && scheme !== '') return scheme as Scheme;
  const target = typeof rule.target === 'string' ? rule.target : '';
  if (GOOGLE_APIS_BUNDLES.includes(target)) return 'PSC';
  return readReference(target, project)?.collection === 'serviceAttachments' ? 'PSC' : 'EXTERNAL';
}

/**
 * Where an address must be unique: external rules share the region, internal and PSC rules
 * their VPC network (the subnetwork stands for it when no network is known).
 */
function clashDomain(rule: Record<string, unknown>, project: string): string {
  const kind = kindOf(rule, project);
  if (kind === 'EXTERNAL' || kind === 'EXTERNAL_MANAGED') return 'external';
  const network =
    typeof rule.network === 'string' ? readReference(rule.network, project) : undefined;
  if (network) return `network ${network.project}/${network.name}`;
  const subnetwork =
    typeof rule.subnetwork === 'string' ? readReference(rule.subnetwork, project) : undefined;
  if (subnetwork) return `subnetwork ${resourcePath(subnetwork)}`;
  return `network ${project}/default`;
}

function sourceRangesOf(rule: Record<string, unknown>): IpRange[] {
  if (!Array.isArray(rule.sourceIpRanges)) return [];
  return rule.sourceIpRanges.flatMap((r) => {
    const range = typeof r === 'string' ? parseRange(r) : undefined;
    return range ? [range] : [];
  });
}

/**
 * Refuses a rule whose address, protocol and ports clash with an existing rule's in the same
 * domain (400, as Compute answers it), and returns the selfLink of the base rule of a steering
 * rule (one with sourceIpRanges): the rule with the same address, protocol and ports and no
 * sourceIpRanges.
 */
function checkClash(rule: Record<string, unknown>, ctx: InsertContext): string | undefined {
  const address = canonicalAddress(rule.IPAddress);
  if (address === undefined) return undefined;
  const protocol = rule.IPProtocol ?? 'TCP';
  const domain = clashDomain(rule, ctx.project);
  const ports = portsOf(rule);
  const sources = sourceRangesOf(rule);
  let base: string | undefined;
  for (const other of ctx.existing) {
    if (other.name === rule.name) continue; // a duplicate name is 409, decided by the caller
    if (canonicalAddress(other.IPAddress) !== address) continue;
    if ((other.IPProtocol ?? 'TCP') !== protocol) continue;
    if (clashDomain(other, ctx.project) !== domain) continue;
    const otherPorts = portsOf(other);
    if (!portsOverlap(ports, otherPorts)) continue;
    const otherSources = sourceRangesOf(other);
    if (sources.length > 0 && otherSources.length === 0) {
      if (base === undefined && portsKey(ports) === portsKey(otherPorts)) {
        base =
          typeof other.selfLink === 'string'
            ? other.selfLink
            : ctx.urls.forwardingRule(ctx.project, ctx.region, other.name);
      }
      continue;
    }
    if (sources.length === 0 && otherSources.length > 0) continue; // a steering rule of ours
    if (sources.length > 0 && !sources.some((a) => otherSources.some((b) => rangesOverlap(a, b)))) {
      continue;
    }
    if (sources.length > 0) {
      throw invalid(
        'sourceIpRanges',
        '',
        `The source IP ranges overlap those of 'projects/${ctx.project}/regions/${ctx.region}/forwardingRules/${other.name}', which has the same IP address, protocol and ports.`,
      );
    }
    throw invalid(
      'IPAddress',
      rule.IPAddress,
      'Specified IP address is in-use and would result in a conflict.',
    );
  }
  return base;
}

// ---------------------------------------------------------------------------------------------
// Create
// ---------------------------------------------------------------------------------------------

/**
 * Validates an insert body and returns the client part of the new rule, normalised the way
 * Compute Engine answers it (defaults filled, references as full URLs, `portRange: "90"` as
 * `"90-90"`, false booleans omitted, labels dropped: they are set through setLabels, output-only
 * fields dropped, `serviceName` and `baseForwardingRule` derived). Throws an {@link ApiError}
 * (400 naming the field; 404 for an address reference, as the emulator holds no addresses) for
 * anything the real API rejects. docs/coverage.md lists every rule.
 */
export function prepareForwardingRule(body: unknown, ctx: InsertContext): ForwardingRuleJson {
  if (body === undefined) {
    throw new ApiError(400, 'required', "Required field 'resource' not specified", {
      location: 'resource',
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.badRequest(
      'Invalid JSON payload received. The request body must be a ForwardingRule object.',
    );
  }
  const input = parseForwardingRuleShape(body);
  // An empty string is an unset field (proto3 JSON), as clients send `"loadBalancingScheme": ""`.
  const str = (field: string): string | undefined => {
    const value = input[field];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const list = <T>(field: string): T[] | undefined => {
    const value = input[field] as T[] | undefined;
    return value && value.length > 0 ? value : undefined;
  };
  const flag = (field: string) => input[field] === true;
  const enumValue = (field: string, values: readonly string[]): string | undefined => {
    const value = str(field);
    if (value !== undefined && !values.includes(value)) {
      throw invalid(field, value, `Must be one of [${values.join(', ')}].`);
    }
    return value;
  };
  const targetText = str('target');
  const googleApis = targetText !== undefined && GOOGLE_APIS_BUNDLES.includes(targetText);

  // name
  const name = str('name');
  if (name === undefined) throw required('name');
  if (googleApis) {
    if (!PSC_GOOGLE_APIS_NAME.test(name)) {
      throw invalid(
        'name',
        name,
        `Must be a match of regex '${PSC_GOOGLE_APIS_NAME_PATTERN}': a Private Service Connect forwarding rule to Google APIs has a name of 1-20 lowercase letters and digits starting with a letter.`,
      );
    }
  } else if (!RFC1035.test(name)) {
    throw invalid('name', name, `Must be a match of regex '${NAME_PATTERN}'`);
  }

  // region: output only, taken from the path; a body that names another one is refused.
  const bodyRegion = str('region');
  if (bodyRegion !== undefined) {
    const segments = bodyRegion.replace(/\/+$/, '').split('/');
    const at = segments.lastIndexOf('projects');
    if (
      segments[segments.length - 1] !== ctx.region ||
      (at >= 0 && segments[at + 1] !== ctx.project)
    ) {
      throw invalid(
        'region',
        bodyRegion,
        `The region of a forwarding rule comes from the request path: projects/${ctx.project}/regions/${ctx.region}.`,
      );
    }
  }

  // enums
  const E = FORWARDING_RULE_ENUMS;
  const protocol = enumValue('IPProtocol', E.IPProtocol) ?? 'TCP';
  const schemeText = enumValue('loadBalancingScheme', E.loadBalancingScheme);
  if (schemeText === 'INTERNAL_SELF_MANAGED' || schemeText === 'INVALID') {
    throw invalid(
      'loadBalancingScheme',
      schemeText,
      schemeText === 'INVALID'
        ? 'INVALID is not a load balancing scheme a client may set.'
        : 'INTERNAL_SELF_MANAGED is only supported by global forwarding rules.',
    );
  }
  const tier = enumValue('networkTier', E.networkTier);
  if (tier !== undefined && tier !== 'PREMIUM' && tier !== 'STANDARD') {
    throw invalid(
      'networkTier',
      tier,
      'The network tier of a regional forwarding rule is PREMIUM or STANDARD.',
    );
  }
  const ipVersionText = enumValue('ipVersion', E.ipVersion);
  const ipVersion = ipVersionText === 'UNSPECIFIED_VERSION' ? undefined : ipVersionText;
  const migrationState = enumValue(
    'externalManagedBackendBucketMigrationState',
    E.externalManagedBackendBucketMigrationState,
  );
  const metadataFilters = list<Record<string, unknown>>('metadataFilters');
  metadataFilters?.forEach((filter, i) => {
    const criteria = filter.filterMatchCriteria;
    if (
      typeof criteria === 'string' &&
      !(E.filterMatchCriteria as readonly string[]).includes(criteria)
    ) {
      throw invalid(
        `metadataFilters[${i}].filterMatchCriteria`,
        criteria,
        `Must be one of [${E.filterMatchCriteria.join(', ')}].`,
      );
    }
  });

  // target and backendService: what the rule is, and where its traffic goes
  let targetRef: Reference | undefined;
  if (targetText !== undefined && !googleApis) {
    targetRef = readReference(targetText, ctx.project);
    if (!targetRef) {
      throw invalid(
        'target',
        targetText,
        `The URL is malformed. A target is a resource URL or one of the Google APIs bundles ${GOOGLE_APIS_BUNDLES.join(', ')}.`,
      );
    }
  }
  const targetType =
    targetRef && Object.hasOwn(TARGET_TYPES, targetRef.collection)
      ? TARGET_TYPES[targetRef.collection]
      : undefined;
  if (targetRef) {
    if (!targetType || targetType.scope !== targetRef.scope) {
      const type = targetType?.type ?? targetRef.collection;
      throw invalid(
        'target',
        targetText,
        targetRef.scope === 'global'
          ? `Invalid target type ${type} for forwarding rule in scope REGION`
          : `Invalid target type ${type} for a regional forwarding rule.`,
      );
    }
    if (regionOf(targetRef) !== ctx.region) {
      throw invalid(
        'target',
        targetText,
        `The target must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
  }
  const psc = googleApis || targetRef?.collection === 'serviceAttachments';
  if (psc && schemeText !== undefined) {
    throw invalid(
      'loadBalancingScheme',
      schemeText,
      'A Private Service Connect forwarding rule has no load balancing scheme; leave it empty.',
    );
  }
  const kind: Kind = psc ? 'PSC' : ((schemeText as Scheme | undefined) ?? 'EXTERNAL');
  if (targetType && !targetType.kinds.includes(kind)) {
    throw invalid(
      'target',
      targetText,
      `A target of type ${targetType.type} cannot be used with load balancing scheme ${kind}.`,
    );
  }
  const backendText = str('backendService');
  if (backendText !== undefined) {
    if (targetText !== undefined) {
      throw invalid(
        'backendService',
        backendText,
        'target and backendService are mutually exclusive: set one of them.',
      );
    }
    const ref = readReference(backendText, ctx.project);
    if (ref?.collection !== 'backendServices') {
      throw invalid('backendService', backendText, 'The URL is malformed.');
    }
    if (ref.scope !== 'regions' || ref.location !== ctx.region) {
      throw invalid(
        'backendService',
        backendText,
        `A regional forwarding rule needs a backend service in its region, ${ctx.region}.`,
      );
    }
    if (kind !== 'EXTERNAL' && kind !== 'INTERNAL') {
      throw invalid(
        'backendService',
        backendText,
        `A forwarding rule with load balancing scheme ${kind} cannot have a backendService; set a target instead.`,
      );
    }
  }

  // networkTier and IPProtocol by kind
  if (tier === 'STANDARD' && kind !== 'EXTERNAL' && kind !== 'EXTERNAL_MANAGED') {
    throw invalid(
      'networkTier',
      tier,
      `The STANDARD tier is only available to external forwarding rules, not to ${kind === 'PSC' ? 'Private Service Connect' : kind} ones.`,
    );
  }
  const protocols = PROTOCOLS[kind];
  if (protocols !== 'any' && !protocols.includes(protocol)) {
    throw invalid(
      'IPProtocol',
      protocol,
      `A forwarding rule with load balancing scheme ${kind} supports ${protocols.join(', ')}.`,
    );
  }

  // IPAddress and ipVersion
  let address: string | undefined;
  let addressFamily: 4 | 6 | undefined;
  const addressText = str('IPAddress');
  if (addressText !== undefined) {
    address = canonicalAddress(addressText);
    if (address === undefined) {
      const ref = readReference(addressText, ctx.project);
      const named = RFC1035.test(addressText)
        ? `projects/${ctx.project}/regions/${ctx.region}/addresses/${addressText}`
        : ref?.collection === 'addresses' && ref.scope !== 'zones'
          ? resourcePath(ref)
          : undefined;
      if (named !== undefined) {
        // The emulator holds no Address resources, so every reference is to a missing one.
        throw errors.notFound(`The resource '${named}' was not found`);
      }
      throw invalid(
        'IPAddress',
        addressText,
        'Must be a literal IP address or URL referencing an Address resource.',
      );
    }
    addressFamily = address.includes(':') ? 6 : 4;
  } else if (googleApis) {
    throw required('IPAddress');
  }
  if (ipVersion !== undefined && addressFamily !== undefined) {
    const wanted = ipVersion === 'IPV6' ? 6 : 4;
    if (wanted !== addressFamily) {
      throw invalid(
        'ipVersion',
        ipVersion,
        `The IP address '${addressText}' is an IPv${addressFamily} address.`,
      );
    }
  }
  const ipv6 = ipVersion === 'IPV6' || addressFamily === 6;

  // network, subnetwork, ipCollection
  const networkText = str('network');
  if (networkText !== undefined) {
    const ref = readReference(networkText, ctx.project);
    if (ref?.collection !== 'networks' || ref.scope !== 'global') {
      throw invalid('network', networkText, 'The URL is malformed.');
    }
  } else if (googleApis) {
    throw required('network');
  }
  const subnetworkText = str('subnetwork');
  if (subnetworkText !== undefined) {
    const ref = readReference(subnetworkText, ctx.project);
    if (ref?.collection !== 'subnetworks' || ref.scope !== 'regions') {
      throw invalid('subnetwork', subnetworkText, 'The URL is malformed.');
    }
    if (ref.location !== ctx.region) {
      throw invalid(
        'subnetwork',
        subnetworkText,
        `The subnetwork must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
    if (kind === 'EXTERNAL_MANAGED' || (kind === 'EXTERNAL' && !ipv6)) {
      throw invalid(
        'subnetwork',
        subnetworkText,
        'A subnetwork is used only by internal, Private Service Connect and IPv6 external passthrough forwarding rules.',
      );
    }
  } else if (kind === 'EXTERNAL' && ipv6) {
    throw required('subnetwork');
  }
  const ipCollectionText = str('ipCollection');
  if (ipCollectionText !== undefined) {
    const ref = readReference(ipCollectionText, ctx.project);
    if (ref?.collection !== 'publicDelegatedPrefixes' || ref.scope !== 'regions') {
      throw invalid('ipCollection', ipCollectionText, 'The URL is malformed.');
    }
    if (ref.location !== ctx.region) {
      throw invalid(
        'ipCollection',
        ipCollectionText,
        `The public delegated prefix must be in the region of the forwarding rule, ${ctx.region}.`,
      );
    }
    if (kind !== 'EXTERNAL' || !ipv6) {
      throw invalid(
        'ipCollection',
        ipCollectionText,
        'An ipCollection is used only by IPv6 external passthrough forwarding rules (BYOIP).',
      );
    }
  }

  // ports
  const portRangeText = str('portRange');
  const portRange =
    portRangeText === undefined ? undefined : normalizePortRange('portRange', portRangeText);
  const ports = list<string>('ports');
  if (ports) {
    if (ports.length > FORWARDING_RULE_LIMITS.ports) {
      throw invalid(
        'ports',
        '',
        `At most ${FORWARDING_RULE_LIMITS.ports} ports may be given, not ${ports.length}.`,
      );
    }
    for (const [i, port] of ports.entries()) normalizePortRange(`ports[${i}]`, port);
  }
  const allPorts = flag('allPorts');
  if (portRange !== undefined && ports) {
    throw invalid('ports', '', 'portRange and ports are mutually exclusive: set one of them.');
  }
  if (allPorts && (portRange !== undefined || ports)) {
    throw invalid(
      'allPorts',
      true,
      'allPorts, portRange and ports are mutually exclusive: set one of them.',
    );
  }
  const portField = portRange !== undefined ? 'portRange' : 'ports';
  const portValue = portRange ?? '';
  if (protocol === 'L3_DEFAULT') {
    if (portRange !== undefined || ports) {
      throw invalid(
        portField,
        portValue,
        'The L3_DEFAULT protocol takes no portRange or ports: set allPorts to true.',
      );
    }
    if (!allPorts) {
      throw invalid('allPorts', false, 'The L3_DEFAULT protocol requires allPorts to be true.');
    }
  } else if ((portRange !== undefined || ports) && !PORT_PROTOCOLS.includes(protocol)) {
    throw invalid(
      portField,
      portValue,
      `Ports can only be given with IPProtocol TCP, UDP or SCTP, not ${protocol}.`,
    );
  } else if (allPorts && !PORT_PROTOCOLS.includes(protocol)) {
    throw invalid(
      'allPorts',
      true,
      `allPorts requires IPProtocol TCP, UDP, SCTP or L3_DEFAULT, not ${protocol}.`,
    );
  }
  // Which products take which port field (decided only from what the body says).
  const targetCollection = targetRef?.collection;
  const passthroughTarget =
    targetCollection === undefined || targetCollection === 'targetInstances';
  if (kind === 'PSC' && (portRange !== undefined || ports || allPorts)) {
    throw invalid(
      portRange !== undefined ? 'portRange' : ports ? 'ports' : 'allPorts',
      portRange ?? (ports ? '' : true),
      'A Private Service Connect forwarding rule forwards every port; it takes no port fields.',
    );
  }
  if (portRange !== undefined && kind === 'INTERNAL' && backendText !== undefined) {
    throw invalid(
      'portRange',
      portRange,
      'An internal passthrough forwarding rule selects ports with ports or allPorts, not portRange.',
    );
  }
  if (ports && !(kind === 'INTERNAL' || (kind === 'EXTERNAL' && targetCollection === undefined))) {
    throw invalid(
      'ports',
      '',
      'ports are used only by internal passthrough, backend service-based external passthrough and internal protocol forwarding rules; use portRange.',
    );
  }
  if (allPorts && !((kind === 'INTERNAL' || kind === 'EXTERNAL') && passthroughTarget)) {
    throw invalid(
      'allPorts',
      true,
      'allPorts is used only by internal and external passthrough (backend service-based) and protocol forwarding rules.',
    );
  }

  // booleans that only some kinds of rule take
  if (flag('allowGlobalAccess') && kind !== 'INTERNAL' && kind !== 'INTERNAL_MANAGED') {
    throw invalid(
      'allowGlobalAccess',
      true,
      'Global access is available only to INTERNAL and INTERNAL_MANAGED forwarding rules.',
    );
  }
  if (flag('isMirroringCollector') && kind !== 'INTERNAL') {
    throw invalid(
      'isMirroringCollector',
      true,
      'Only a forwarding rule with load balancing scheme INTERNAL can be a packet mirroring collector.',
    );
  }
  if (flag('allowPscGlobalAccess') && kind !== 'PSC') {
    throw invalid(
      'allowPscGlobalAccess',
      true,
      'allowPscGlobalAccess applies only to Private Service Connect forwarding rules.',
    );
  }

  // serviceLabel (→ serviceName) and Service Directory
  const serviceLabel = str('serviceLabel');
  if (serviceLabel !== undefined) {
    if (!RFC1035.test(serviceLabel)) {
      throw invalid('serviceLabel', serviceLabel, `Must be a match of regex '${NAME_PATTERN}'`);
    }
    if (kind !== 'INTERNAL') {
      throw invalid(
        'serviceLabel',
        serviceLabel,
        'A service label is used only by forwarding rules with load balancing scheme INTERNAL.',
      );
    }
  }
  const registrations = list<Record<string, unknown>>('serviceDirectoryRegistrations');
  if (
    registrations &&
    registrations.length > FORWARDING_RULE_LIMITS.serviceDirectoryRegistrations
  ) {
    throw invalid(
      'serviceDirectoryRegistrations',
      '',
      `Only a single entry is supported, not ${registrations.length}.`,
    );
  }
  registrations?.forEach((entry, i) => {
    for (const field of ['namespace', 'service']) {
      const value = entry[field];
      if (typeof value === 'string' && value !== '' && !RFC1035.test(value)) {
        throw invalid(
          `serviceDirectoryRegistrations[${i}].${field}`,
          value,
          `Must be a match of regex '${NAME_PATTERN}'`,
        );
      }
    }
    const region = entry.serviceDirectoryRegion;
    if (typeof region === 'string' && region !== '' && !REGION_NAME.test(region)) {
      throw invalid(
        `serviceDirectoryRegistrations[${i}].serviceDirectoryRegion`,
        region,
        'Must be a region name such as us-central1.',
      );
    }
  });

  // sourceIpRanges
  const sourceIpRanges = list<string>('sourceIpRanges');
  if (sourceIpRanges) {
    if (sourceIpRanges.length > FORWARDING_RULE_LIMITS.sourceIpRanges) {
      throw invalid(
        'sourceIpRanges',
        '',
        `At most ${FORWARDING_RULE_LIMITS.sourceIpRanges} source IP ranges may be given, not ${sourceIpRanges.length}.`,
      );
    }
    sourceIpRanges.forEach((range, i) => {
      if (!parseRange(range)) {
        throw invalid(
          `sourceIpRanges[${i}]`,
          range,
          'Must be an IP address or a CIDR range, such as 1.2.3.4 or 1.2.3.0/24.',
        );
      }
    });
    if (kind !== 'EXTERNAL') {
      throw invalid(
        'sourceIpRanges',
        '',
        'sourceIpRanges can only be used with a regional forwarding rule whose load balancing scheme is EXTERNAL.',
      );
    }
  }

  // metadataFilters: checked, then refused, as only INTERNAL_SELF_MANAGED (global) rules take them
  metadataFilters?.forEach((filter, i) => {
    const labels = (filter.filterLabels as Record<string, unknown>[] | undefined) ?? [];
    if (labels.length === 0 || labels.length > FORWARDING_RULE_LIMITS.filterLabels) {
      throw invalid(
        `metadataFilters[${i}].filterLabels`,
        '',
        `Must hold between 1 and ${FORWARDING_RULE_LIMITS.filterLabels} entries, not ${labels.length}.`,
      );
    }
    labels.forEach((label, j) => {
      const field = `metadataFilters[${i}].filterLabels[${j}]`;
      const labelName = typeof label.name === 'string' ? label.name : '';
      const value = typeof label.value === 'string' ? label.value : '';
      if (labelName.length < 1 || labelName.length > FORWARDING_RULE_LIMITS.filterLabelName) {
        throw invalid(
          `${field}.name`,
          labelName.length > 64 ? `${labelName.slice(0, 64)}…` : labelName,
          `Must be 1-${FORWARDING_RULE_LIMITS.filterLabelName} characters long, not ${labelName.length}.`,
        );
      }
      if (value.length > FORWARDING_RULE_LIMITS.filterLabelValue) {
        throw invalid(
          `${field}.value`,
          `${value.slice(0, 64)}…`,
          `Must be at most ${FORWARDING_RULE_LIMITS.filterLabelValue} characters long, not ${value.length}.`,
        );
      }
    });
  });
  if (metadataFilters) {
    throw invalid(
      'metadataFilters',
      '',
      'Metadata filters apply only to forwarding rules with load balancing scheme INTERNAL_SELF_MANAGED, which only global forwarding rules have.',
    );
  }

  // the backend bucket migration: a new rule may only take the first step of the state table
  const percentageField = 'externalManagedBackendBucketMigrationTestingPercentage';
  const percentage = input[percentageField] as number | undefined;
  if (percentage !== undefined) {
    const { min, max } = FORWARDING_RULE_LIMITS.migrationPercentage;
    if (!(percentage >= min && percentage <= max)) {
      throw invalid(percentageField, percentage, `Must be within [${min}, ${max}].`);
    }
    if (migrationState !== 'TEST_BY_PERCENTAGE') {
      throw invalid(
        percentageField,
        percentage,
        `A percentage is allowed only with externalManagedBackendBucketMigrationState TEST_BY_PERCENTAGE, not ${migrationState ?? 'unset'}.`,
      );
    }
  }
  if (migrationState !== undefined) {
    if (kind !== 'EXTERNAL') {
      throw invalid(
        'externalManagedBackendBucketMigrationState',
        migrationState,
        `The migration begins from the EXTERNAL scheme; this rule is ${kind}.`,
      );
    }
    const firstSteps = MIGRATION_TRANSITIONS.filter((t) => t.from === 'unset').map((t) => t.to);
    if (!(firstSteps as string[]).includes(migrationState)) {
      throw invalid(
        'externalManagedBackendBucketMigrationState',
        migrationState,
        `A new forwarding rule can only begin the migration, in state ${firstSteps.join(' or ')}; later states are reached by patching the rule.`,
      );
    }
  }

  // labels: validated like every GCE label set, then ignored (they are set through setLabels)
  const labels = (input.labels as Record<string, string> | undefined) ?? {};
  checkLabels(labels, 'resource.labels');
  const labelEntries = Object.entries(labels);
  if (labelEntries.length > 0 && targetRef?.collection === 'serviceAttachments') {
    throw invalid(
      'labels',
      '',
      'Invalid field set in Private Service Connect Forwarding Rule. This field should not be set.',
    );
  }

  // The rule as Compute answers it.
  const rule: Record<string, unknown> = { name, description: str('description') ?? '' };
  if (address !== undefined) rule.IPAddress = address;
  rule.IPProtocol = protocol;
  if (portRange !== undefined) rule.portRange = portRange;
  if (ports) rule.ports = ports;
  if (allPorts) rule.allPorts = true;
  if (targetText !== undefined) {
    rule.target = answeredReference('target', targetText, ctx.project, ctx.urls);
  }
  if (backendText !== undefined) {
    rule.backendService = answeredReference('backendService', backendText, ctx.project, ctx.urls);
  }
  if (kind !== 'PSC') rule.loadBalancingScheme = kind;
  if (networkText !== undefined) {
    rule.network = answeredReference('network', networkText, ctx.project, ctx.urls);
  } else if (
    subnetworkText === undefined &&
    (kind === 'INTERNAL' || kind === 'INTERNAL_MANAGED' || kind === 'PSC')
  ) {
    rule.network = `${ctx.urls.project(ctx.project)}/global/networks/default`;
  }
  if (subnetworkText !== undefined) {
    rule.subnetwork = answeredReference('subnetwork', subnetworkText, ctx.project, ctx.urls);
  }
  if (ipCollectionText !== undefined) {
    rule.ipCollection = answeredReference('ipCollection', ipCollectionText, ctx.project, ctx.urls);
  }
  if (registrations) {
    rule.serviceDirectoryRegistrations = registrations.map((entry) => {
      const out: Record<string, string> = {};
      for (const field of ['namespace', 'service', 'serviceDirectoryRegion']) {
        const value = entry[field];
        if (typeof value === 'string' && value !== '') out[field] = value;
      }
      if (googleApis && out.serviceDirectoryRegion === undefined) {
        out.serviceDirectoryRegion = DEFAULT_SERVICE_DIRECTORY_REGION;
      }
      return out;
    });
  }
  if (serviceLabel !== undefined) {
    rule.serviceLabel = serviceLabel;
    rule.serviceName = `${serviceLabel}.${name}.il4.${ctx.region}.lb.${ctx.project}.internal`;
  }
  rule.networkTier = tier ?? 'PREMIUM';
  if (ipVersion !== undefined) rule.ipVersion = ipVersion;
  // proto3 JSON: a false boolean is the default and is omitted from answers.
  for (const field of [
    'allowGlobalAccess',
    'isMirroringCollector',
    'allowPscGlobalAccess',
    'noAutomateDnsZone',
  ]) {
    if (flag(field)) rule[field] = true;
  }
  if (sourceIpRanges) rule.sourceIpRanges = sourceIpRanges;
  if (migrationState !== undefined) {
    rule.externalManagedBackendBucketMigrationState = migrationState;
  }

  const base = checkClash(rule, ctx);
  if (base !== undefined) rule.baseForwardingRule = base;
  return rule as ForwardingRuleJson;
}
