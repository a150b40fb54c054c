// A child process for the kill -9 test of restores: opens a store (a PGlite directory, or a
// PostgreSQL URL), then returns its whole state to image A, then B, then A, … in a loop (from
// snapshots kept on its shelf, and from the images), printing each one after it committed. The test kills it with SIGKILL mid-restore.
import { PageTokenCodec } from '@listkit/query';
import type { StoreImage } from '../../packages/service/src/store/index.js';
import { openStore } from '../../packages/service/src/store/index.js';

const [where] = process.argv.slice(2);
if (!where) throw new Error('usage: store-restorer DIR|postgres://…');
const store = await openStore(
  where.startsWith('postgres')
    ? { kind: 'postgres', url: where }
    : { kind: 'pglite', dataDir: where },
  {
    pageTokens: await PageTokenCodec.create({ secrets: ['store-restorer-secret-of-enough-bytes'] }),
  },
);
const base = 'https://compute.googleapis.com/compute/v1/projects/p/regions/us-east1';

/** A state of `count` rules named `<prefix>-<i>`, with an order and a setting of its own. */
function image(prefix: string, count: number): StoreImage {
  return {
    rules: Array.from({ length: count }, (_, i) => ({
      project: 'p',
      region: 'us-east1',
      rule: {
        kind: 'compute#forwardingRule',
        name: `${prefix}-${i}`,
        creationTimestamp: '2024-01-01T00:00:00.000Z',
        selfLink: `${base}/forwardingRules/${prefix}-${i}`,
        IPAddress: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
        labels: { state: prefix },
        fingerprint: `fp-${i}`,
      },
    })),
    operations: [],
    orders: [
      {
        packageName: 'com.example',
        orderId: `GPA.${prefix}`,
        kind: 'oneTimeProduct',
        recurring: false,
        productId: 'gems',
        purchaseToken: `token-${prefix}`,
        purchaseTime: '2024-01-01T00:00:00Z',
        price: { currencyCode: 'EUR', units: '1', nanos: 0 },
        access: 'granted',
        payments: 'none',
      },
    ],
    settings: { state: prefix },
  };
}

// Kept as snapshots first, as the emulator keeps them; then restored from the shelf, as
// `emulator.restore(name)` does, and every fourth time replaced from the image itself.
const states = [image('a', 1500), image('b', 1000)];
const limits = { count: 8, bytes: 64 * 1024 * 1024 };
const kept = [];
for (const state of states) {
  const name = String(state.settings.state);
  const info = { name, takenAt: new Date().toISOString(), bytes: 2 };
  await store.snapshots.put(info, '{}', state, limits);
  kept.push(info);
}
for (let i = 0; ; i++) {
  const state = states[i % 2]!;
  const { name, takenAt } = kept[i % 2]!;
  if (i % 4 < 2) {
    if (!(await store.restore(name, takenAt))) throw new Error(`snapshot ${name} not kept`);
  } else {
    await store.replace(state);
  }
  process.stdout.write(`restored ${state.settings.state}\n`);
}
