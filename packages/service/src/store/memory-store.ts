import type { PageTokenCodec } from '@listkit/query';
import { MemoryForwardingRuleStore } from '../forwarding-rules/memory-forwarding-rule-store.js';
import { memoryOperationStore } from '../operations/memory-operation-store.js';
import { memoryOrderStore } from '../orders/memory-order-store.js';
import { memoryStateStore } from '../state/memory-state-store.js';
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
    reset: async () => {
      for (const part of [rules, operations, orders, state]) part.clear();
    },
    close: async () => undefined,
  };
}
