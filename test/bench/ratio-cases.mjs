// The filters whose ratios `pnpm bench` (run.mjs) prints and `pnpm bench:check` (check.mjs)
// guards: one list, so that the guard times the rows the tables show.

const CUTOFF = Date.parse('2025-06-01T00:00:00Z');

/** AIP-160 filters with their CEL and hand-written JavaScript equivalents. */
export const FILTERS = [
  {
    aip: 'loadBalancingScheme = EXTERNAL AND labels.env = "prod"',
    cel: 'r.loadBalancingScheme == "EXTERNAL" && r.labels.env == "prod"',
    js: (r) => r.loadBalancingScheme === 'EXTERNAL' && r.labels?.env === 'prod',
  },
  {
    aip: 'name = web-* OR name = api-*',
    cel: 'r.name.startsWith("web-") || r.name.startsWith("api-")',
    js: (r) => r.name.startsWith('web-') || r.name.startsWith('api-'),
  },
  {
    aip: 'creationTimestamp > 2025-06-01T00:00:00Z',
    cel: 'timestamp(r.creationTimestamp) > timestamp("2025-06-01T00:00:00Z")',
    js: (r) => Date.parse(r.creationTimestamp) > CUTOFF,
  },
  {
    aip: 'IPProtocol = TCP AND NOT labels:team',
    cel: 'r.IPProtocol == "TCP" && !("team" in r.labels)',
    js: (r) => r.IPProtocol === 'TCP' && !(r.labels && Object.hasOwn(r.labels, 'team')),
  },
];

/** RE2 patterns for Compute Engine regex-style filters (`name eq "…"`). */
export const PATTERNS = [
  { pattern: 'web-.*', note: 'literal fast path (prefix): no engine call' },
  { pattern: 'web-.*-us-central1-.*', note: 'engine' },
  { pattern: '(web|api)-[a-z]+-us-.*-0[0-9]+', note: 'engine' },
];

export const regexFilter = (pattern) => `name eq "${pattern}"`;
