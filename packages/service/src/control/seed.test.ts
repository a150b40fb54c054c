import { describe, expect, it } from 'vitest';
import { createEmulator } from '../emulator.js';
import { ApiError } from '../http/api-error.js';
import type { Seed } from './seed.js';

// Seeds run the validation the API runs on what it stores, and a refusal names the item.

/** The ApiError a seed is refused with (createEmulator rejects with it). */
async function refusal(seed: unknown): Promise<ApiError> {
  let error: unknown;
  try {
    await createEmulator({ seed: seed as Seed });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const ruleSeed = (rule: Record<string, unknown>) => ({
  forwardingRules: [
    { project: 'p', region: 'r', rule: { name: 'ok-1' } },
    { project: 'p', region: 'r', rule: { name: 'fr-bad', ...rule } },
  ],
});
const DEEP = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`) as unknown;

describe('seeded forwarding rules', () => {
  it.each([
    [
      'an object as creationTimestamp',
      { creationTimestamp: { x: 1 } },
      'resource.creationTimestamp',
    ],
    [
      'a creationTimestamp that is not RFC 3339',
      { creationTimestamp: 'yesterday' },
      'creationTimestamp',
    ],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a name that is not RFC 1035', { name: 'Bad_Name' }, 'resource.name'],
    ['an unknown IPProtocol', { IPProtocol: 'XYZ' }, 'resource.IPProtocol'],
    ['a label key in capitals', { labels: { Env: 'x' } }, 'resource.labels'],
    ['a 3000-character description', { description: 'd'.repeat(3000) }, 'resource.description'],
    ['a 10,000-deep array', { description: DEEP }, 'resource.description'],
    ['an id that is not a uint64', { id: 'abc' }, 'resource.id'],
    ['an IPAddress that is not an address', { IPAddress: 'here' }, 'resource.IPAddress'],
  ])('%s is 400 naming the item and the field, and nothing is added', async (_what, rule, says) => {
    const error = await refusal(ruleSeed(rule));
    expect(error.status).toBe(400);
    expect(error.message).toContain('forwardingRules[1]');
    expect(error.message).toContain(says);
    expect(error.message.length).toBeLessThan(600);
  });

  it('a valid seed keeps its server-set fields and uint64 ids come back as strings', async () => {
    const emulator = await createEmulator({
      seed: {
        forwardingRules: [
          {
            project: 'p',
            region: 'r',
            rule: {
              name: 'fr',
              id: 123 as unknown as string,
              creationTimestamp: '2024-01-01T00:00:00.000-07:00',
            },
          },
        ],
      },
    });
    const res = await emulator.fetch(
      new Request('http://x/compute/v1/projects/p/regions/r/forwardingRules/fr', {
        headers: { authorization: 'Bearer t' },
      }),
    );
    expect(await res.json()).toMatchObject({
      id: '123',
      creationTimestamp: '2024-01-01T00:00:00.000-07:00',
    });
  });

  it('a rule named twice in one seed is 400 naming both items (the second replaced the first)', async () => {
    const error = await refusal({
      forwardingRules: [
        { project: 'p', region: 'r', rule: { name: 'twice', description: 'first' } },
        { project: 'p', region: 'r', rule: { name: 'other' } },
        { project: 'p', region: 'r', rule: { name: 'twice', description: 'second' } },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.message).toContain('forwardingRules[2]');
    expect(error.message).toContain('forwardingRules[0]');
  });

  it('the same name in another region or project is a different rule', async () => {
    const emulator = await createEmulator({
      seed: {
        forwardingRules: [
          { project: 'p', region: 'r', rule: { name: 'same' } },
          { project: 'p', region: 's', rule: { name: 'same' } },
          { project: 'q', region: 'r', rule: { name: 'same' } },
        ],
      },
    });
    for (const [project, region] of [
      ['p', 'r'],
      ['p', 's'],
      ['q', 'r'],
    ]) {
      const res = await emulator.fetch(
        new Request(`http://x/compute/v1/projects/${project}/regions/${region}/forwardingRules`, {
          headers: { authorization: 'Bearer t' },
        }),
      );
      expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);
    }
  });

  it('POST /_listkit/seed answers the same 400 and adds nothing', async () => {
    const emulator = await createEmulator();
    const res = await emulator.fetch(
      new Request('http://emulator/_listkit/seed', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ruleSeed({ creationTimestamp: { x: 1 } })),
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toContain('forwardingRules[1]');
    const list = await emulator.fetch(
      new Request('http://x/compute/v1/projects/p/regions/r/forwardingRules', {
        headers: { authorization: 'Bearer t' },
      }),
    );
    expect(((await list.json()) as { items?: unknown[] }).items).toBeUndefined();
  });
});

describe('seeded orders', () => {
  const orderSeed = (order: Record<string, unknown>) => ({
    orders: [
      { packageName: 'com.example', orderId: 'GPA.1' },
      { packageName: 'com.example', orderId: 'GPA.2', ...order },
    ],
  });

  it.each([
    ['a price that is not Money', { price: 'free' }, 'price'],
    ['a price without currency', { price: { units: '1', nanos: 0 } }, 'price.currencyCode'],
    ['recurring as a string', { recurring: 'yes' }, 'recurring'],
    ['an unknown access', { access: 'maybe' }, 'access'],
    ['unknown payments', { payments: 'sometimes' }, 'payments'],
    ['consumed as a number', { consumed: 1 }, 'consumed'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a productId of 10,000 characters', { productId: 'p'.repeat(10_000) }, 'productId'],
    ['an accessEndTime that is not RFC 3339', { accessEndTime: 'soon' }, 'accessEndTime'],
    ['a refund without time', { refund: { revoke: true } }, 'refund.time'],
    ['a 10,000-deep array', { productId: DEEP }, 'productId'],
  ])('%s is 400 naming the order and the field', async (_what, order, says) => {
    const error = await refusal(orderSeed(order));
    expect(error.status).toBe(400);
    expect(error.message).toContain('orders[1]');
    expect(error.message).toContain('GPA.2');
    expect(error.message).toContain(says);
    expect(error.message.length).toBeLessThan(600);
  });

  it('an order named twice in one seed is 400 naming both items', async () => {
    const error = await refusal({
      orders: [
        { packageName: 'com.example', orderId: 'GPA.1' },
        { packageName: 'com.example', orderId: 'GPA.1' },
      ],
    });
    expect(error.status).toBe(400);
    expect(error.message).toContain('orders[1]');
    expect(error.message).toContain('orders[0]');
  });

  it('an orderId of 10,000 characters is refused, quoted short', async () => {
    const error = await refusal({
      orders: [{ packageName: 'com.example', orderId: 'o'.repeat(10_000) }],
    });
    expect(error.status).toBe(400);
    expect(error.message.length).toBeLessThan(600);
  });
});

describe('seeded global forwarding rules', () => {
  it('are stored in the global scope, apart from regional rules of the same name', async () => {
    const emulator = await createEmulator({
      seed: {
        forwardingRules: [{ project: 'p', region: 'r', rule: { name: 'web' } }],
        globalForwardingRules: [{ project: 'p', rule: { name: 'web', region: 'ignored' } }],
      },
    });
    const rules = await emulator.state.forwardingRules.all();
    const links = rules.map((r) => [r.region, r.rule.selfLink]);
    expect(links.sort((a, b) => String(a[1]).localeCompare(String(b[1])))).toEqual([
      [undefined, 'https://www.googleapis.com/compute/v1/projects/p/global/forwardingRules/web'],
      ['r', 'https://www.googleapis.com/compute/v1/projects/p/regions/r/forwardingRules/web'],
    ]);
    const global = rules.find((r) => r.region === undefined)!.rule;
    expect(global).not.toHaveProperty('region');
    expect(global).not.toHaveProperty('selfLinkWithId');
    await emulator.close();
  });

  it.each([
    ['no project', { rule: { name: 'web' } }, 'needs project and rule.name'],
    ['a bad name', { project: 'p', rule: { name: 'Bad_Name' } }, "'resource.name'"],
  ])('%s is 400 naming the item, and nothing is added', async (_what, entry, says) => {
    const error = await refusal({ globalForwardingRules: [entry] });
    expect(error.status).toBe(400);
    expect(error.message).toContain('seed.globalForwardingRules[0]');
    expect(error.message).toContain(says);
  });
});
