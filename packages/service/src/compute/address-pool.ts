import { ApiError } from '../http/api-error.js';

/** The pools ephemeral addresses come from: public IPv4, VPC-internal IPv4, and IPv6. */
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
 * Ephemeral IP addresses for rules created without one, from ranges that are never routed:
 * external IPv4 rules get 203.0.113.0/24 then 198.51.100.0/24 (RFC 5737), then 198.18.0.0/15
 * (RFC 2544); internal IPv4 rules 10.128.0.0/9 (a default VPC's regional ranges); IPv6 rules
 * 2001:db8::/32 (RFC 3849). Addresses already used in the region are skipped. An exhausted pool
 * is Compute's quota answer, 403 `quotaExceeded`.
 *
 * @example
 * ```ts
 * allocateAddress('external', new Set(['203.0.113.1']), 'us-central1'); // '203.0.113.2'
 * ```
 */
export function allocateAddress(
  kind: AddressPoolKind,
  inUse: ReadonlySet<string>,
  region: string,
): string {
  for (const candidate of addressPool(kind)) {
    if (!inUse.has(candidate)) return candidate;
  }
  throw new ApiError(
    403,
    'quotaExceeded',
    `Quota '${kind === 'external' ? 'IN_USE_ADDRESSES' : 'INTERNAL_ADDRESSES'}' exceeded. Limit: ${ADDRESS_POOL_SIZES[kind]}.0 in region ${region}.`,
  );
}

/** Every address of a pool, in allocation order. */
export function* addressPool(kind: AddressPoolKind): Generator<string> {
  if (kind === 'external') {
    for (const prefix of ['203.0.113', '198.51.100'])
      for (let i = 1; i < 255; i++) yield `${prefix}.${i}`;
    for (let n = 1; n < 2 ** 17; n++) yield `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    return;
  }
  if (kind === 'ipv6') {
    // 2001:db8::1 … 2001:db8::ffff, then 2001:db8::1:0 … (RFC 5952 text: no leading zeros).
    for (let n = 1; n < 2 ** 17; n++) {
      const high = n >> 16;
      const low = (n & 0xffff).toString(16);
      yield high === 0 ? `2001:db8::${low}` : `2001:db8::${high.toString(16)}:${low}`;
    }
    return;
  }
  for (let n = 2; n < 1 << 23; n++) yield `10.${128 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
