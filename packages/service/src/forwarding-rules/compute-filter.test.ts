import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../emulator.js';

// Compute's AIP-160 filter needs a field, an operator and a value in every expression: a bare
// value, `NOT name eq foo` or gcloud's client-side `~` are 400s, not global searches.

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator({
    seed: {
      forwardingRules: [
        { project: 'p', region: 'r', rule: { name: 'web-prod-1', description: 'web-prod-1' } },
      ],
    },
  });
});

async function list(collection: string, filter: string) {
  const res = await emulator.fetch(
    new Request(
      `http://x/compute/v1/projects/p/regions/r/${collection}?filter=${encodeURIComponent(filter)}`,
      { headers: { authorization: 'Bearer t' } },
    ),
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("Compute's filter refuses expressions without field and operator", () => {
  it.each([
    ['a bare value', 'web-prod-1'],
    ['two bare values', 'web prod'],
    ['NOT before a regex-style term', 'NOT name eq foo'],
    ["gcloud's ~ operator", 'name ~ web'],
    ['a bare value after a comparison', 'name = web-prod-1 prod'],
  ])('%s: %s → 400 naming the filter', async (_what, filter) => {
    for (const collection of ['forwardingRules', 'operations']) {
      const res = await list(collection, filter);
      expect(res.status, JSON.stringify(res.json)).toBe(400);
      const error = res.json.error as { errors: { location?: string }[] };
      expect(error.errors[0]!.location).toBe('filter');
    }
  });

  it.each(['name = web-prod-1', 'name eq web-prod-1', 'NOT name = other', 'description:web'])(
    'a restriction with a field still works: %s',
    async (filter) => {
      const res = await list('forwardingRules', filter);
      expect(res.status).toBe(200);
    },
  );
});

describe('list parameters with an invalid UTF-8 escape', () => {
  // Decoded as a URL decodes them: the bad byte becomes U+FFFD and the escapes around it are
  // decoded too (a whole run of escapes was once left undecoded, a different filter).
  const get = async (query: string) => {
    const res = await emulator.fetch(
      new Request(`http://x/compute/v1/projects/p/regions/r/forwardingRules?${query}`, {
        headers: { authorization: 'Bearer t' },
      }),
    );
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  it('reads filter=name%3D%FF as name = U+FFFD (a filter that matches nothing)', async () => {
    const res = await get('filter=name%3D%FF');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.items).toBeUndefined();
  });

  it('quotes orderBy=%C3%28 decoded in its 400', async () => {
    const res = await get('orderBy=%C3%28');
    expect(res.status).toBe(400);
    const error = res.json.error as { message: string };
    expect(error.message).toContain("'\uFFFD('");
  });
});
