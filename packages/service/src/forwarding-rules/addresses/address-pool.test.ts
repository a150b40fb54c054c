import { describe, expect, it } from 'vitest';
import { caller } from '../../../../../test/support/http-call.js';
import { Refusal } from '../../core/refusal.js';
import { createEmulator } from '../../emulator.js';
import { refusalToApiError } from '../../http/refusal-answer.js';
import {
  ADDRESS_POOL_SIZES,
  type AddressPoolKind,
  addressAt,
  addressPool,
  poolIndexOf,
} from './address-pool.js';
import { FreeAddresses } from './free-addresses.js';

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
      new FreeAddresses((address) => inUse.has(address)).take('external', 'us-central1');
    } catch (caught) {
      error = caught;
    }
    // The domain refuses; the HTTP edge answers the refusal in Compute's words.
    expect(error).toBeInstanceOf(Refusal);
    const answer = refusalToApiError(error as Refusal, 'compute');
    expect(answer.status).toBe(403);
    expect(answer.reason).toBe('quotaExceeded');
    expect(answer.message).toContain('in region us-central1');
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

  it.each(['external', 'ipv6'] as AddressPoolKind[])(
    'every %s address maps back to its position, and nothing outside the pool does',
    (kind) => {
      let index = 0;
      for (const address of addressPool(kind)) {
        expect(poolIndexOf(address)).toEqual({ kind, index });
        index++;
      }
    },
  );

  it('maps internal addresses to positions, and refuses what the pools never hand out', () => {
    const last = ADDRESS_POOL_SIZES.internal - 1;
    for (const index of [0, 1, 253, 254, 65_533, 65_534, last]) {
      expect(poolIndexOf(addressAt('internal', index))).toEqual({ kind: 'internal', index });
    }
    expect(addressAt('internal', 0)).toBe('10.128.0.2');
    expect(addressAt('internal', last)).toBe('10.255.255.255');
    for (const outside of [
      '10.128.0.1',
      '10.127.255.255',
      '198.18.0.0',
      '203.0.113.0',
      '203.0.113.255',
      '010.128.0.2',
      '2001:db8::',
      '2001:db8::2:0',
      '2001:db8::0001',
      '192.0.2.1',
      '10.128.0.2/32',
    ]) {
      expect(poolIndexOf(outside)).toBeUndefined();
    }
  });

  it('takes the lowest free address, reuses released ones, and never walks the pool again', () => {
    const used = new Set<string>();
    let asked = 0;
    const free = new FreeAddresses((address) => {
      asked++;
      return used.has(address);
    });
    const n = 100_000;
    // Addresses named by rules (static) in the middle of the pool are passed over.
    for (let i = 0; i < n; i += 10) used.add(addressAt('internal', i + 5));
    const taken: string[] = [];
    for (let i = 0; i < n; i++) {
      const address = free.take('internal', 'r');
      used.add(address);
      taken.push(address);
    }
    expect(taken.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 6].map((i) => addressAt('internal', i)));
    // Each position was asked about about once: the pool was never walked from its start.
    expect(asked).toBeLessThan(1.2 * n);
    for (const i of [70_000, 3, 500]) {
      used.delete(taken[i]!);
      free.released(taken[i]!);
    }
    asked = 0;
    expect([free.take('internal', 'r'), free.take('internal', 'r')]).toEqual([
      taken[3],
      taken[500],
    ]);
    used.add(taken[3]!);
    used.add(taken[500]!);
    // Released, then taken by a rule naming it: skipped.
    used.add(taken[70_000]!);
    expect(free.take('internal', 'r')).toBe(addressAt('internal', n + n / 10));
    expect(asked).toBeLessThan(10);
  });

  it('a deleted rule frees its address for the next rule created without one', async () => {
    const emulator = await createEmulator();
    const call = caller<{ IPAddress: string }>(emulator, { token: 't' });
    const insert = async (name: string, fields: Record<string, unknown> = {}) => {
      const res = await call('POST', RULES, {
        name,
        loadBalancingScheme: 'INTERNAL',
        backendService: 'regions/us-central1/backendServices/bs',
        ports: ['80'],
        ...fields,
      });
      expect(res.status).toBe(200);
      return (await call('GET', `${RULES}/${name}`)).json.IPAddress;
    };
    expect(await insert('named', { IPAddress: '10.128.0.3' })).toBe('10.128.0.3');
    expect(await insert('a')).toBe('10.128.0.2');
    expect(await insert('b')).toBe('10.128.0.4');
    expect((await call('DELETE', `${RULES}/a`)).status).toBe(200);
    expect((await call('DELETE', `${RULES}/named`)).status).toBe(200);
    expect(await insert('c')).toBe('10.128.0.2');
    expect(await insert('d')).toBe('10.128.0.3');
    expect(await insert('e')).toBe('10.128.0.5');
  });
});
