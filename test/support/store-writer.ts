// A child process for the kill -9 test: opens a PGlite store in the directory given, then writes
// rules (each with its operation) and refunds in a loop, printing each one only after its
// transaction has committed. The test kills it with SIGKILL mid-burst.
import { PageTokenCodec } from '@listkit/query';
import { openStore } from '../../packages/service/src/store/index.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: store-writer DIR');
const store = await openStore(
  { kind: 'pglite', dataDir: dir },
  { pageTokens: await PageTokenCodec.create({ secrets: ['store-writer-secret-of-enough-bytes'] }) },
);
const parent = { project: 'p', region: 'us-east1' };
const base = 'https://compute.googleapis.com/compute/v1/projects/p/regions/us-east1';
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const name = `burst-${i}`;
  await store.rules.insert(
    parent,
    {
      name,
      creationTimestamp: '2024-01-01T00:00:00.000Z',
      selfLink: `${base}/forwardingRules/${name}`,
      labels: { i: String(i) },
      fingerprint: `fp-${i}`,
    },
    {
      requestId: `req-${i}`,
      operation: () => ({
        operation: {
          kind: 'compute#operation',
          id: String(i + 1),
          name: `operation-${i}`,
          creationTimestamp: '2024-01-01T00:00:00.000Z',
          operationType: 'insert',
          targetLink: `${base}/forwardingRules/${name}`,
          targetId: String(i + 1),
          status: 'RUNNING',
          progress: 0,
          user: 'writer',
          insertTime: '2024-01-01T00:00:00.000Z',
          startTime: '2024-01-01T00:00:00.000Z',
          region: base,
          selfLink: `${base}/operations/operation-${i}`,
        },
        meta: {},
        requestId: `req-${i}`,
      }),
    },
  );
  process.stdout.write(`rule ${i}\n`);
  const order = {
    packageName: 'com.example',
    orderId: `GPA.${i}`,
    kind: 'oneTimeProduct' as const,
    recurring: false,
    productId: 'gems',
    purchaseToken: `t-${i}`,
    purchaseTime: '2024-01-01T00:00:00Z',
    price: { currencyCode: 'EUR', units: '1', nanos: 0 },
    access: 'granted' as const,
    payments: 'none' as const,
  };
  await store.orders.put(order);
  await store.orders.refund({ ...order, refund: { time: '2024-02-01T00:00:00Z', revoke: false } });
  process.stdout.write(`refund ${i}\n`);
}
