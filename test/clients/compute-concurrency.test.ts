// Concurrent inserts over real HTTP: requestId deduplication and name uniqueness must hold when
// many requests arrive at once.
import { createEmulator, type Emulator } from '@listkit/service';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { computeClients, FAKE_TOKEN, newRequestId, thrown } from '../support/real-clients.js';
import { onStore } from '../support/test-store.js';

const project = 'my-project';
const region = 'us-central1';

describe(onStore('concurrent inserts'), () => {
  let emulator: Emulator;
  let rulesUrl: string;

  beforeAll(async () => {
    emulator = await createEmulator();
    const url = await emulator.listen(0);
    rulesUrl = `${url}/compute/v1/projects/${project}/regions/${region}/forwardingRules`;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => emulator.reset());

  const insert = async (body: object, requestId?: string) => {
    const res = await fetch(`${rulesUrl}?${requestId ? `requestId=${requestId}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FAKE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  const listNames = async (): Promise<string[]> => {
    const res = await fetch(`${rulesUrl}?maxResults=500`, {
      headers: { authorization: `Bearer ${FAKE_TOKEN}` },
    });
    const json = (await res.json()) as { items?: { name: string }[]; nextPageToken?: string };
    expect(json.nextPageToken).toBeUndefined();
    return (json.items ?? []).map((r) => r.name);
  };

  it('200 inserts over 20 requestIds (10 retries each) create 20 rules, one operation per id', async () => {
    const ids = Array.from({ length: 20 }, () => newRequestId());
    const calls = Array.from({ length: 200 }, (_, i) => {
      const k = i % 20; // interleave the retries of different ids
      const body = { name: `fr-c-${k}`, IPProtocol: 'TCP', portRange: '80', labels: {} };
      return insert(body, ids[k]).then((answer) => ({ k, ...answer }));
    });
    const answers = await Promise.all(calls);

    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (let k = 0; k < 20; k++) {
      const mine = answers.filter((a) => a.k === k);
      expect(mine).toHaveLength(10);
      expect(new Set(mine.map((a) => a.json.name)).size).toBe(1);
      expect(new Set(mine.map((a) => a.json.targetId)).size).toBe(1);
      expect(mine[0]!.json.targetLink).toMatch(new RegExp(`/forwardingRules/fr-c-${k}$`));
    }
    expect(new Set(answers.map((a) => a.json.name)).size).toBe(20);
    expect((await listNames()).sort()).toEqual(
      Array.from({ length: 20 }, (_, k) => `fr-c-${k}`).sort(),
    );
    expect(await emulator.state.operations.all()).toHaveLength(20);
  });

  it('50 concurrent inserts of one name without requestId: one 200, 49 × 409 alreadyExists', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => insert({ name: 'fr-race', portRange: '80' })),
    );
    const ok = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(49);
    for (const { json } of conflicts) {
      expect(json).toEqual({
        error: {
          code: 409,
          message: `The resource 'projects/${project}/regions/${region}/forwardingRules/fr-race' already exists`,
          errors: [
            {
              domain: 'global',
              reason: 'alreadyExists',
              message: `The resource 'projects/${project}/regions/${region}/forwardingRules/fr-race' already exists`,
            },
          ],
        },
      });
    }
    expect(await listNames()).toEqual(['fr-race']);
  });

  it('the embedded fetch handler decides concurrent inserts the same way', async () => {
    const requestId = newRequestId();
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const res = await emulator.fetch(
          new Request(`${rulesUrl}?requestId=${requestId}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${FAKE_TOKEN}` },
            body: JSON.stringify({ name: 'fr-embedded' }),
          }),
        );
        return { status: res.status, json: (await res.json()) as { name: string } };
      }),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.json.name)).size).toBe(1);
    expect(await listNames()).toEqual(['fr-embedded']);
  });

  it('the real compute client sees the same: one operation per requestId, one winner per name', async () => {
    const clients = computeClients(emulator.url!);
    try {
      const requestId = newRequestId();
      const insert = (name: string, id?: string) =>
        clients.rules.insert({
          project,
          region,
          ...(id ? { requestId: id } : {}),
          forwardingRuleResource: { name, portRange: '80', labels: {} },
        });
      const retries = await Promise.all(
        Array.from({ length: 20 }, () => insert('fr-client-rid', requestId)),
      );
      const names = retries.map(([lro]) => (lro.latestResponse as { name: string }).name);
      expect(new Set(names).size).toBe(1);

      const race = await Promise.all(
        Array.from({ length: 20 }, () =>
          insert('fr-client-race').then(
            () => 'ok',
            (error: { code?: number }) => error.code,
          ),
        ),
      );
      expect(race.filter((r) => r === 'ok')).toHaveLength(1);
      expect(race.filter((r) => r === 10)).toHaveLength(19);
      expect((await listNames()).sort()).toEqual(['fr-client-race', 'fr-client-rid']);
      expect((await thrown(() => insert('fr-client-race'))).code).toBe(10);
    } finally {
      await clients.close();
    }
  });
});
