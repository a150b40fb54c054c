import type { PageTokenCodec } from '@listkit/query';
import { MemoryForwardingRuleStore } from '../forwarding-rules/memory-forwarding-rule-store.js';
import { memoryOperationStore } from '../operations/memory-operation-store.js';
import { memoryOrderStore } from '../orders/memory-order-store.js';
import { memoryStateStore } from '../state/memory-state-store.js';
import { memorySnapshotShelf } from './snapshot-shelf.js';
import type { EmulatorStore } from './store.js';
import type { StoreImage } from './store-image.js';

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
  /** An image as the parts keep it, checked and indexed: built once, adopted by each restore. */
  const prepare = (image: StoreImage) => ({
    rules: rules.prepare(image.rules),
    operations: operations.prepare(image.operations),
    orders: orders.prepare(image.orders),
    settings: state.prepare(image.settings),
  });
  // Each part takes a copy of its prepared tables synchronously: no request runs in between.
  const adopt = (prepared: ReturnType<typeof prepare>) => {
    rules.adopt(prepared.rules);
    operations.adopt(prepared.operations);
    orders.adopt(prepared.orders);
    state.adopt(prepared.settings);
  };
  const snapshots = memorySnapshotShelf(prepare);
  return {
    kind: 'memory',
    rules,
    operations,
    orders,
    state,
    snapshots,
    // Each part is read, and replaced, synchronously: no request runs in between.
    capture: async () => ({
      rules: rules.entries(),
      operations: operations.records(),
      orders: orders.entries(),
      settings: state.entries(),
    }),
    // Prepared first: an image that does not fit throws before anything changed.
    replace: async (image) => adopt(prepare(image)),
    restore: async (name, takenAt) => {
      const prepared = snapshots.prepared(name, takenAt);
      if (prepared) adopt(prepared);
      return prepared !== undefined;
    },
    reset: async () => {
      for (const part of [rules, operations, orders, state]) part.clear();
    },
    close: async () => undefined,
  };
}
