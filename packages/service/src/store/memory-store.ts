import type { PageTokenCodec } from '@listkit/query';
import { MemoryForwardingRuleStore } from '../forwarding-rules/memory-forwarding-rule-store.js';
import { memoryOperationStore } from '../operations/memory-operation-store.js';
import { memoryOrderStore } from '../orders/memory-order-store.js';
import { memoryStateStore } from '../state/memory-state-store.js';
import { memorySnapshotShelf } from './snapshot-shelf.js';
import type { EmulatorStore } from './store.js';

/**
 * Options of {@link openMemoryStore}.
 *
 * @example
 * ```ts
 * const options: MemoryStoreOptions = { pageTokens: await PageTokenCodec.create() };
 * const store = openMemoryStore(options);
 * ```
 */
export interface MemoryStoreOptions {
  pageTokens: PageTokenCodec;
}

/**
 * The emulator's state in this process's memory, listed by the in-memory `Collection` engine.
 * Every method decides synchronously (no await between a check and its write), so concurrent
 * calls are serialised by the event loop as the emulator always was.
 *
 * @example
 * ```ts
 * const store = openMemoryStore({ pageTokens: await PageTokenCodec.create() });
 * await store.orders.put(order);
 * ```
 */
export function openMemoryStore(options: MemoryStoreOptions): EmulatorStore {
  const operations = memoryOperationStore(options.pageTokens);
  const rules = new MemoryForwardingRuleStore(options.pageTokens, operations);
  const orders = memoryOrderStore();
  const state = memoryStateStore();
  return {
    kind: 'memory',
    rules,
    operations,
    orders,
    state,
    snapshots: memorySnapshotShelf(),
    // Each part is read, and replaced, synchronously: no request runs in between.
    capture: async () => ({
      rules: rules.entries(),
      operations: operations.records(),
      orders: orders.entries(),
      settings: state.entries(),
    }),
    replace: async (image) => {
      rules.load(image.rules);
      operations.clear();
      for (const { project, region, version, ...added } of image.operations) {
        operations.record(region === undefined ? { project } : { project, region }, added, version);
      }
      orders.load(image.orders);
      state.load(image.settings);
    },
    reset: async () => {
      for (const part of [rules, operations, orders, state]) part.clear();
    },
    close: async () => undefined,
  };
}
