import { describe, expect, it } from 'vitest';
import { createEmulator } from '../emulator.js';
import { ApiError } from '../http/api-error.js';
import {
  ADDRESS_POOL_SIZES,
  type AddressPoolKind,
  addressPool,
  allocateAddress,
} from './address-pool.js';

const RULES = 'http://x/compute/v1/projects/p/regions/us-central1/forwardingRules';

describe('the ephemeral address pools', () => {
  // The internal pool (10.128.0.0/9, 8M addresses) is too large to enumerate in a test.
  it.each(['external', 'ipv6'] as AddressPoolKind[])(
    'the %s pool holds at least a /16, distinct addresses, as many as it says',
    (kind) => {
      const seen = new Set<string>();
      for (const address of addressPool(kind)) seen.add(address);
      expect(seen.size).toBe(ADDRESS_POOL_SIZES[kind]);
      expect(seen.size).toBeGreaterThanOrEqual(2 ** 16 - 1);
    },
  );

  it('an exhausted pool is Compute quota answer (403 quotaExceeded), not a crash', () => {
    const inUse = new Set(addressPool('external'));
    let error: unknown;
    try {
      allocateAddress('external', inUse, 'us-central1');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).reason).toBe('quotaExceeded');
    expect((error as ApiError).message).toContain('in region us-central1');
  });

  it('the 509th external rule without an address gets one (it was a 500)', async () => {
    const emulator = await createEmulator();
    const insert = (i: number) =>
      emulator.fetch(
        new Request(RULES, {
          method: 'POST',
          headers: { authorization: 'Bearer t' },
          body: JSON.stringify({ name: `fr-${i}`, target: 'regions/us-central1/targetPools/tp' }),
        }),
      );
    for (let i = 0; i < 509; i++) expect((await insert(i)).status).toBe(200);
    const res = await emulator.fetch(
      new Request(`${RULES}/fr-508`, { headers: { authorization: 'Bearer t' } }),
    );
    expect(((await res.json()) as { IPAddress: string }).IPAddress).toBe('198.18.0.1');
    expect((await insert(509)).status).toBe(200);
  });
});
