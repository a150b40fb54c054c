/**
 * Ephemeral IP addresses for rules created without one, from documentation ranges that are never
 * routed: external IPv4 rules get 203.0.113.0/24 then 198.51.100.0/24 (RFC 5737), internal IPv4
 * rules 10.128.0.0/9 (a default VPC's regional ranges), IPv6 rules 2001:db8::/32 (RFC 3849).
 * Addresses already used in the region are skipped.
 */
export function allocateAddress(
  kind: 'external' | 'internal' | 'ipv6',
  inUse: ReadonlySet<string>,
): string {
  for (const candidate of candidates(kind)) {
    if (!inUse.has(candidate)) return candidate;
  }
  throw new Error(`the ${kind} address pool is exhausted`);
}

function* candidates(kind: 'external' | 'internal' | 'ipv6'): Generator<string> {
  if (kind === 'external') {
    for (const prefix of ['203.0.113', '198.51.100'])
      for (let i = 1; i < 255; i++) yield `${prefix}.${i}`;
    return;
  }
  if (kind === 'ipv6') {
    for (let i = 1; i < 0x10000; i++) yield `2001:db8::${i.toString(16)}`;
    return;
  }
  for (let n = 2; n < 1 << 23; n++) yield `10.${128 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
