import { seededRandom } from '../core/seeded-random.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';

const REGIONS = ['us-central1', 'us-east1', 'europe-west1', 'asia-east1'];
const APPS = ['web', 'api', 'db', 'cache', 'auth', 'search', 'media', 'batch'];
const ENVS = ['prod', 'staging', 'dev', 'test'];
const PROTOCOLS = ['TCP', 'TCP', 'TCP', 'UDP', 'L3_DEFAULT'];
const SCHEMES = ['EXTERNAL', 'EXTERNAL_MANAGED', 'INTERNAL', 'INTERNAL_MANAGED'];

/**
 * Generates `count` forwarding rules shaped like Compute Engine's answers, deterministically
 * from `seed`. Used by the demo, the benchmarks and the playground's default data.
 *
 * @example
 * ```ts
 * const rules = sampleForwardingRules(300);
 * rules[0].name; // 'web-prod-us-central1-0000'
 * ```
 */
export function sampleForwardingRules(
  count: number,
  { seed = 1, project = 'my-project' }: { seed?: number; project?: string } = {},
): ForwardingRuleJson[] {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const base = Date.UTC(2024, 0, 1);
  const rules: ForwardingRuleJson[] = [];
  for (let i = 0; i < count; i++) {
    const region = pick(REGIONS);
    const app = pick(APPS);
    const env = pick(ENVS);
    const scheme = pick(SCHEMES);
    const protocol = pick(PROTOCOLS);
    const name = `${app}-${env}-${region}-${String(i).padStart(4, '0')}`;
    const regionUrl = `https://www.googleapis.com/compute/v1/projects/${project}/regions/${region}`;
    const id = (1_000_000_000_000_000_000n + BigInt(i) * 7_919n).toString();
    const port = pick([80, 443, 8080, 53, 5432]);
    const created = new Date(base + Math.floor(next() * 700 * 86_400_000) + i).toISOString();
    const rule: ForwardingRuleJson = {
      kind: 'compute#forwardingRule',
      id,
      creationTimestamp: created.replace('Z', '-07:00'),
      name,
      description: next() < 0.5 ? '' : `${app} frontend for ${env}`,
      region: regionUrl,
      IPAddress: `10.${Math.floor(i / 65536) % 256}.${Math.floor(i / 256) % 256}.${i % 256}`,
      IPProtocol: protocol,
      loadBalancingScheme: scheme,
      networkTier: scheme.startsWith('INTERNAL') ? 'PREMIUM' : pick(['PREMIUM', 'STANDARD']),
      labels: { app, env, ...(next() < 0.3 ? { team: pick(['core', 'growth', 'infra']) } : {}) },
      selfLink: `${regionUrl}/forwardingRules/${name}`,
      selfLinkWithId: `${regionUrl}/forwardingRules/${id}`,
      fingerprint: 'm9i8ZT3F4tM=',
      labelFingerprint: '42WmSpB8rSM=',
    };
    if (protocol === 'L3_DEFAULT') rule.allPorts = true;
    else if (next() < 0.7) rule.portRange = `${port}-${port}`;
    else rule.ports = [String(port), String(port + 1)];
    if (scheme.startsWith('INTERNAL')) {
      rule.network = `https://www.googleapis.com/compute/v1/projects/${project}/global/networks/default`;
      if (next() < 0.5) rule.allowGlobalAccess = true;
    }
    rules.push(rule);
  }
  return rules;
}
