import { describe, expect, it } from 'vitest';
import { type CallInit, call, caller } from '../../../../test/support/http-call.js';
import { EmulatorClock } from '../core/clock.js';
import { createEmulator } from '../emulator.js';
import type { OrderSeed } from './order.js';
import { refundDeadline } from './orders.js';

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const PACKAGE = 'com.example.app';

async function emulatorWith(
  orders: OrderSeed[],
  options: Parameters<typeof createEmulator>[0] = {},
) {
  const clock = new EmulatorClock(() => NOW);
  const emulator = await createEmulator({ clock, seed: { orders }, ...options });
  const send = caller(emulator);
  const refund = (orderId: string, query = '', init: CallInit = {}) =>
    send(
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/${encodeURIComponent(orderId)}:refund${query}`,
      undefined,
      init,
    );
  const state = async (orderId: string) => {
    const body = (await call(emulator, 'GET', '/_listkit/state', { token: null })).json as {
      orders: (OrderSeed & { orderId: string })[];
    };
    return body.orders.find((o) => o.orderId === orderId);
  };
  return { emulator, clock, send, refund, state };
}

describe('refunding an order', () => {
  it('answers 204 with an empty body and marks the order refunded', async () => {
    const { refund, state, send } = await emulatorWith([
      { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
    ]);
    const res = await refund('GPA.1');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await state('GPA.1')).toMatchObject({
      refund: { time: '2026-06-15T12:00:00.000Z', revoke: false },
      access: 'granted',
    });
    const order = (await send('GET', `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.1`))
      .json as Record<string, unknown>;
    expect(order).toMatchObject({
      orderId: 'GPA.1',
      state: 'REFUNDED',
      orderHistory: { refundEvent: { eventTime: '2026-06-15T12:00:00.000Z' } },
    });
  });

  it.each([
    ['?revoke=true', 'revoked', 'stopped', true],
    ['?revoke=True', 'revoked', 'stopped', true],
    ['?revoke=false', 'granted', 'active', false],
    ['', 'granted', 'active', false],
  ])(
    '%s on a recurring subscription: access %s, payments %s',
    async (query, access, payments, revoke) => {
      const { refund, state } = await emulatorWith([
        {
          packageName: PACKAGE,
          orderId: 'GPA.sub',
          kind: 'subscription',
          recurring: true,
          purchaseTime: '2026-06-01T00:00:00Z',
        },
      ]);
      expect((await refund('GPA.sub', query)).status).toBe(204);
      expect(await state('GPA.sub')).toMatchObject({ access, payments, refund: { revoke } });
    },
  );

  it('revoking a non-recurring order ends access and has no payments to stop', async () => {
    const { refund, state } = await emulatorWith([
      {
        packageName: PACKAGE,
        orderId: 'GPA.prepaid',
        kind: 'subscription',
        recurring: false,
        purchaseTime: '2026-06-01T00:00:00Z',
      },
    ]);
    await refund('GPA.prepaid', '?revoke=true');
    expect(await state('GPA.prepaid')).toMatchObject({
      access: 'revoked',
      accessEndTime: '2026-06-15T12:00:00.000Z',
      payments: 'none',
    });
  });

  it('leaves consumption alone', async () => {
    const { refund, state } = await emulatorWith([
      {
        packageName: PACKAGE,
        orderId: 'GPA.c',
        kind: 'oneTimeProduct',
        consumed: true,
        purchaseTime: '2026-06-01T00:00:00Z',
      },
      {
        packageName: PACKAGE,
        orderId: 'GPA.n',
        kind: 'oneTimeProduct',
        consumed: false,
        purchaseTime: '2026-06-01T00:00:00Z',
      },
    ]);
    await refund('GPA.c', '?revoke=true');
    await refund('GPA.n', '?revoke=true');
    expect((await state('GPA.c'))?.consumed).toBe(true);
    expect((await state('GPA.n'))?.consumed).toBe(false);
  });

  it('round-trips order ids holding reserved characters', async () => {
    const orderId = 'GPA.1:2/3 4+5';
    const { send, state } = await emulatorWith([
      { packageName: PACKAGE, orderId, purchaseTime: '2026-06-01T00:00:00Z' },
    ]);
    const res = await send(
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.1%3A2%2F3%204%2B5:refund`,
    );
    expect(res.status).toBe(204);
    expect((await state(orderId))?.refund).toBeDefined();
  });

  it("is also served at the spec's /publisher/v3 path", async () => {
    const { send } = await emulatorWith([
      { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
    ]);
    expect(
      (await send('POST', `/publisher/v3/applications/${PACKAGE}/orders/GPA.1:refund`)).status,
    ).toBe(204);
  });
});

describe('refund rules', () => {
  const purchase = '2023-06-15T12:00:00.000Z'; // exactly three years before NOW

  it.each([
    // [what, orderId, request, status, reason]
    ['unknown order', 'GPA.none', {}, 404, 'notFound'],
    ['unknown package', 'GPA.1', { packageName: 'com.other' }, 404, 'notFound'],
    ['non-empty body', 'GPA.1', { body: '{}' }, 400, 'badRequest'],
    ['bad boolean', 'GPA.1', { query: '?revoke=yes' }, 400, 'invalid'],
    ['unknown verb', 'GPA.1', { verb: 'cancel' }, 404, 'notFound'],
  ])(
    '%s → %i',
    async (_what, orderId, request: {
      packageName?: string;
      body?: string;
      query?: string;
      verb?: string;
    }, status, reason) => {
      const { send } = await emulatorWith([
        { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
      ]);
      const path = `/androidpublisher/v3/applications/${request.packageName ?? PACKAGE}/orders/${orderId}:${request.verb ?? 'refund'}${request.query ?? ''}`;
      const res = await send('POST', path, request.body);
      expect(res.status).toBe(status);
      const body = res.json as { error: { code: number; errors: { reason: string }[] } };
      expect(body.error.code).toBe(status);
      expect(body.error.errors[0]?.reason).toBe(reason);
    },
  );

  it('pins the three-year boundary to the instant', async () => {
    expect(refundDeadline(Date.parse(purchase))).toBe(NOW);
    const { refund, clock } = await emulatorWith([
      { packageName: PACKAGE, orderId: 'GPA.edge', purchaseTime: purchase },
      { packageName: PACKAGE, orderId: 'GPA.late', purchaseTime: purchase },
    ]);
    expect((await refund('GPA.edge')).status).toBe(204); // exactly three years: still refundable
    clock.advance(1);
    const late = await refund('GPA.late'); // one millisecond later: too old
    expect(late.status).toBe(400);
    const body = late.json as { error: { message: string; status: string } };
    expect(body.error.status).toBe('FAILED_PRECONDITION');
    expect(body.error.message).toContain('older than 3 years cannot be refunded');
  });

  it('counts years on the calendar (29 February)', () => {
    expect(new Date(refundDeadline(Date.parse('2024-02-29T10:00:00Z'))).toISOString()).toBe(
      '2027-03-01T10:00:00.000Z',
    );
  });

  it('refuses a second refund, and changes nothing', async () => {
    const { refund, state } = await emulatorWith([
      { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
    ]);
    await refund('GPA.1');
    const before = await state('GPA.1');
    const again = await refund('GPA.1', '?revoke=true');
    expect(again.status).toBe(400);
    expect((again.json as { error: { message: string } }).error.message).toContain(
      'already been refunded',
    );
    expect(await state('GPA.1')).toEqual(before);
  });

  it('refunds once under 50 concurrent refunds', async () => {
    const { refund, state } = await emulatorWith([
      {
        packageName: PACKAGE,
        orderId: 'GPA.race',
        kind: 'subscription',
        purchaseTime: '2026-06-01T00:00:00Z',
      },
    ]);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        refund('GPA.race', i % 2 ? '?revoke=true' : '').then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 204)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(49);
    expect((await state('GPA.race'))?.refund).toBeDefined();
  });
});

describe('refund auth', () => {
  const orders: OrderSeed[] = [
    { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
  ];
  const strict = {
    auth: {
      mode: 'strict' as const,
      tokens: {
        publisher: { identity: 'dev@example.com', scopes: ['androidpublisher'] },
        alias: {
          identity: 'dev@example.com',
          scopes: ['https://www.googleapis.com/auth/publisher'],
        },
        compute: { identity: 'ops@example.com', scopes: ['compute'] },
      },
    },
  };

  it.each([
    ['publisher', 204],
    ['alias', 204],
    ['compute', 403],
    ['unknown', 401],
  ])('token %s → %i', async (token, status) => {
    const { emulator } = await emulatorWith(orders, strict);
    const res = await call(
      emulator,
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.1:refund`,
      { token },
    );
    expect(res.status).toBe(status);
  });

  it('answers 401 without a token, as the compute endpoints do', async () => {
    const { emulator } = await emulatorWith(orders);
    const res = await call(
      emulator,
      'POST',
      `/androidpublisher/v3/applications/${PACKAGE}/orders/GPA.1:refund`,
      { token: null },
    );
    expect(res.status).toBe(401);
    expect((res.json as { error: { errors: { reason: string }[] } }).error.errors[0]?.reason).toBe(
      'required',
    );
  });
});

describe('the order a path names', () => {
  it('answers an unknown verb 404 before the call starts, with or without a token', async () => {
    const { send, emulator } = await emulatorWith([
      { packageName: PACKAGE, orderId: 'GPA.1', purchaseTime: '2026-06-01T00:00:00Z' },
    ]);
    const base = `/androidpublisher/v3/applications/${PACKAGE}/orders`;
    for (const token of ['tok', null]) {
      const cancel = await send('POST', `${base}/GPA.1:cancel`, undefined, { token });
      expect(cancel.status).toBe(404);
      expect((cancel.json as { error: { message: string } }).error.message).toBe(
        "Unknown method ':cancel' on orders.",
      );
      expect((await send('POST', `${base}/GPA.1`, undefined, { token })).status).toBe(404);
      expect((await send('GET', `${base}/GPA.1:refund`, undefined, { token })).status).toBe(404);
    }
    // A known verb without a token is the call's 401, named in the request log.
    expect((await send('POST', `${base}/GPA.1:refund`, undefined, { token: null })).status).toBe(
      401,
    );
    const log = (await call(emulator, 'GET', '/_listkit/requests', { token: null })).json as {
      requests: { apiMethod?: string; status: number }[];
    };
    expect(log.requests.at(-1)).toMatchObject({
      apiMethod: 'androidpublisher.orders.refund',
      status: 401,
    });
  });
});
