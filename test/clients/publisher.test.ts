import { createEmulator, type Emulator, EmulatorClock } from '@listkit/service';
import { google } from 'googleapis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { onStore } from '../support/test-store.js';

// The real googleapis client (androidpublisher v3) against the emulator on a loopback port.

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const PACKAGE = 'com.example.app';
let emulator: Emulator;
let publisher: ReturnType<typeof google.androidpublisher>;

const seed = {
  orders: [
    {
      packageName: PACKAGE,
      orderId: 'GPA.1234-5678-9012-34567',
      kind: 'subscription' as const,
      purchaseTime: '2026-06-01T00:00:00Z',
    },
    { packageName: PACKAGE, orderId: 'GPA.1111-2222', purchaseTime: '2026-06-01T00:00:00Z' },
    { packageName: PACKAGE, orderId: 'GPA.3333-4444', purchaseTime: '2026-06-01T00:00:00Z' },
    { packageName: PACKAGE, orderId: 'GPA.old', purchaseTime: '2023-06-15T11:59:59.999Z' },
    { packageName: PACKAGE, orderId: 'GPA.1:2/3 4+5', purchaseTime: '2026-06-01T00:00:00Z' },
  ],
};

async function orderState(orderId: string) {
  const res = await fetch(`${emulator.url}/_listkit/state`);
  const body = (await res.json()) as {
    orders: { orderId: string; access: string; payments: string; refund?: { revoke: boolean } }[];
  };
  return body.orders.find((o) => o.orderId === orderId);
}

beforeAll(async () => {
  emulator = await createEmulator({ seed, clock: new EmulatorClock(() => NOW) });
  const url = await emulator.listen(0);
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: 'fake-token' });
  publisher = google.androidpublisher({ version: 'v3', rootUrl: `${url}/`, auth });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

describe(onStore('googleapis androidpublisher.orders.refund'), () => {
  it('refunds with revoke=true: access ends and the renewing subscription stops', async () => {
    const res = await publisher.orders.refund({
      packageName: PACKAGE,
      orderId: 'GPA.1234-5678-9012-34567',
      revoke: true,
    });
    expect(res.status).toBe(204);
    expect(res.data).toBe('');
    expect(await orderState('GPA.1234-5678-9012-34567')).toMatchObject({
      access: 'revoked',
      payments: 'stopped',
      refund: { revoke: true },
    });
  });

  it('refunds with revoke=false and with revoke absent, leaving access', async () => {
    await publisher.orders.refund({
      packageName: PACKAGE,
      orderId: 'GPA.1111-2222',
      revoke: false,
    });
    await publisher.orders.refund({ packageName: PACKAGE, orderId: 'GPA.3333-4444' });
    for (const id of ['GPA.1111-2222', 'GPA.3333-4444']) {
      expect(await orderState(id)).toMatchObject({ access: 'granted', refund: { revoke: false } });
    }
  });

  it('round-trips an order id with reserved characters', async () => {
    await publisher.orders.refund({ packageName: PACKAGE, orderId: 'GPA.1:2/3 4+5', revoke: true });
    expect((await orderState('GPA.1:2/3 4+5'))?.refund).toBeDefined();
  });

  it('surfaces 404 for an unknown order', async () => {
    const error = await publisher.orders
      .refund({ packageName: PACKAGE, orderId: 'GPA.nope' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining('GPA.nope') });
  });

  it('surfaces the three-year rule as 400', async () => {
    const error = await publisher.orders
      .refund({ packageName: PACKAGE, orderId: 'GPA.old' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      message: expect.stringContaining('older than 3 years'),
    });
  });

  it('reads the order back in the real Order shape', async () => {
    await publisher.orders.refund({ packageName: PACKAGE, orderId: 'GPA.1111-2222' });
    const { data } = await publisher.orders.get({ packageName: PACKAGE, orderId: 'GPA.1111-2222' });
    expect(data).toMatchObject({
      orderId: 'GPA.1111-2222',
      state: 'REFUNDED',
      lineItems: [{ productId: 'coins_100' }],
    });
  });
});
