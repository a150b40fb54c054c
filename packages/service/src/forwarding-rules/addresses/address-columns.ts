import { poolIndexOf } from './address-pool.js';
import { canonicalAddress } from './ip-addresses.js';

/**
 * The SQL store's columns for a rule's address, in this order: `address_key` (the canonical
 * address, which the clash rule looks rules up by), `pool_kind` and `pool_index` (where the
 * address sits in an ephemeral pool, which allocation probes); null where they do not apply.
 *
 * @example
 * ```ts
 * addressColumns('203.0.113.2'); // ['203.0.113.2', 'external', 1]
 * addressColumns('192.0.2.1'); // ['192.0.2.1', null, null]
 * ```
 */
export function addressColumns(
  IPAddress: unknown,
): [key: string | null, kind: string | null, index: number | null] {
  const key = canonicalAddress(IPAddress);
  if (key === undefined) return [null, null, null];
  const at = poolIndexOf(key);
  return [key, at?.kind ?? null, at?.index ?? null];
}
