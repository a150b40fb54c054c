import { type Refusal, refuse } from '../../core/refusal.js';

/**
 * The pools ephemeral addresses come from: public IPv4, VPC-internal IPv4, and IPv6.
 *
 * @example
 * ```ts
 * const kind: AddressPoolKind = 'internal'; // 10.128.0.0/9
 * ```
 */
export type AddressPoolKind = 'external' | 'internal' | 'ipv6';

/**
 * How many addresses each pool holds, per region (each region allocates on its own). Every pool
 * is at least a /16's worth, more than the in-use address quota of any real project.
 */
export const ADDRESS_POOL_SIZES: Readonly<Record<AddressPoolKind, number>> = {
  external: 2 * 254 + 2 ** 17 - 1,
  internal: 2 ** 23 - 2,
  ipv6: 2 ** 17 - 1,
};

/**
 * The pool a rule created without an address takes one from: IPv6 rules the IPv6 pool, internal
 * and Private Service Connect rules (PSC rules have no scheme) the VPC's, external rules a
 * public one.
 *
 * @example
 * ```ts
 * poolKindOf({ loadBalancingScheme: 'EXTERNAL' }); // 'external'
 * ```
 */
export function poolKindOf(rule: Readonly<Record<string, unknown>>): AddressPoolKind {
  if (rule.ipVersion === 'IPV6') return 'ipv6';
  const scheme = rule.loadBalancingScheme;
  const internal = scheme === undefined || String(scheme).startsWith('INTERNAL');
  return internal ? 'internal' : 'external';
}

/**
 * The address at a position of a pool's allocation order (0 is the first one handed out).
 * Ephemeral addresses for rules created without one come from ranges that are never routed:
 * external IPv4 rules get 203.0.113.0/24 then 198.51.100.0/24 (RFC 5737), then 198.18.0.0/15
 * (RFC 2544); internal IPv4 rules 10.128.0.0/9 (a default VPC's regional ranges); IPv6 rules
 * 2001:db8::/32 (RFC 3849). A region's rules take the first position no rule of the region uses
 * (`FreeAddresses`); an exhausted pool is Compute's quota answer, {@link poolExhausted}.
 *
 * @example
 * ```ts
 * addressAt('external', 254); // '198.51.100.1'
 * addressAt('ipv6', 0); // '2001:db8::1'
 * ```
 */
export function addressAt(kind: AddressPoolKind, index: number): string {
  if (kind === 'external') {
    if (index < 254) return `203.0.113.${index + 1}`;
    if (index < 508) return `198.51.100.${index - 253}`;
    const n = index - 507;
    return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
  }
  if (kind === 'ipv6') {
    // 2001:db8::1 … 2001:db8::ffff, then 2001:db8::1:0 … (RFC 5952 text: no leading zeros).
    const n = index + 1;
    const high = n >> 16;
    const low = (n & 0xffff).toString(16);
    return high === 0 ? `2001:db8::${low}` : `2001:db8::${high.toString(16)}:${low}`;
  }
  const n = index + 2;
  return `10.${128 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6_POOL = /^2001:db8::(?:(1):)?([0-9a-f]{1,4})$/;

/**
 * Where an address (in canonical form, see `canonicalAddress`) sits in the ephemeral pools, or
 * undefined when it is in none: the inverse of {@link addressAt}.
 *
 * @example
 * ```ts
 * poolIndexOf('198.51.100.1'); // { kind: 'external', index: 254 }
 * poolIndexOf('192.0.2.1'); // undefined
 * ```
 */
export function poolIndexOf(address: string): { kind: AddressPoolKind; index: number } | undefined {
  let kind: AddressPoolKind;
  let index: number;
  const v4 = IPV4.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if (a === 203 && b === 0 && c === 113) [kind, index] = ['external', d - 1];
    else if (a === 198 && b === 51 && c === 100) [kind, index] = ['external', d + 253];
    else if (a === 198 && (b === 18 || b === 19))
      [kind, index] = ['external', (((b - 18) << 16) | (c << 8) | d) + 507];
    else if (a === 10 && b >= 128)
      [kind, index] = ['internal', (((b - 128) << 16) | (c << 8) | d) - 2];
    else return undefined;
  } else {
    const v6 = IPV6_POOL.exec(address);
    if (!v6) return undefined;
    [kind, index] = ['ipv6', ((v6[1] ? 1 : 0) << 16) + Number.parseInt(v6[2]!, 16) - 1];
  }
  // The round trip refuses what the pools never hand out (x.x.x.0, x.x.x.255, leading zeros).
  const inRange = index >= 0 && index < ADDRESS_POOL_SIZES[kind];
  return inRange && addressAt(kind, index) === address ? { kind, index } : undefined;
}

/**
 * Compute's answer when a pool has no free address left in a region, or in a project's global
 * scope when `region` is undefined (403 `quotaExceeded`).
 *
 * @example
 * ```ts
 * throw poolExhausted('external', 'us-central1');
 * ```
 */
export function poolExhausted(kind: AddressPoolKind, region: string | undefined): Refusal {
  const quota = kind === 'external' ? 'IN_USE_ADDRESSES' : 'INTERNAL_ADDRESSES';
  // A global rule's pool is the project's global one (Compute names it GLOBAL_…, "globally").
  const where = region === undefined ? 'globally' : `in region ${region}`;
  return refuse.quotaExceeded(
    `Quota '${region === undefined ? `GLOBAL_${quota}` : quota}' exceeded. Limit: ${ADDRESS_POOL_SIZES[kind]}.0 ${where}.`,
  );
}

/**
 * Every address of a pool, in allocation order.
 *
 * @example
 * ```ts
 * addressPool('ipv6').next().value; // '2001:db8::1'
 * ```
 */
export function* addressPool(kind: AddressPoolKind): Generator<string> {
  for (let i = 0; i < ADDRESS_POOL_SIZES[kind]; i++) yield addressAt(kind, i);
}
