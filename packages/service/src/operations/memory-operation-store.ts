import { Collection, type PageTokenCodec } from '@listkit/query';
import { Refusal } from '../core/refusal.js';
import { type ScopeRef, scopeParent, tokenParent } from '../names/resource-names.js';
import type { OperationJson } from './operation.js';
import { operationSchema } from './operation-schema.js';
import type { NewOperation, OperationRecord, OperationStore } from './operation-store.js';

/**
 * The operations of the memory store, and what the memory rule store needs of them to record a
 * rule write's operation in the same synchronous step (`record`, `replay`).
 *
 * @example
 * ```ts
 * const operations = memoryOperationStore(pageTokens);
 * const earlier = operations.replay(east, 'retry-1');
 * ```
 */
export interface MemoryOperationStore extends OperationStore {
  /** Stores an operation at this version (a new one at 1), synchronously. */
  record(parent: ScopeRef, added: NewOperation, version: number): OperationRecord;
  /** The operation an earlier write with this requestId recorded in the region. */
  replay(parent: ScopeRef, requestId: string | undefined): OperationRecord | undefined;
  /** Forgets every operation (the store's reset). */
  clear(): void;
  /** Every operation, copied, at this instant (synchronously: a snapshot's read). */
  records(): OperationRecord[];
}

const copy = <T>(value: T): T => structuredClone(value);

/**
 * Regional operations in this process's memory, listed by the in-memory `Collection` engine.
 * Every method decides synchronously (no await between a check and its write).
 *
 * @example
 * ```ts
 * const operations = memoryOperationStore(await PageTokenCodec.create());
 * await operations.insert(east, { operation, meta: {} });
 * ```
 */
export function memoryOperationStore(pageTokens: PageTokenCodec): MemoryOperationStore {
  const operations = new Map<string, OperationRecord>();
  /** Keys of running operations in start order, and of done ones in completion order (expiry). */
  const runningOrder = new Set<string>();
  const doneOrder = new Set<string>();
  const lists = new Map<string, Collection<OperationJson>>();
  const requestIds = new Map<string, string>();

  const listOf = (parent: ScopeRef) => {
    const key = scopeParent(parent);
    let list = lists.get(key);
    if (!list) {
      list = new Collection<OperationJson>(operationSchema, { pageTokens });
      lists.set(key, list);
    }
    return list;
  };
  const operationKey = (parent: ScopeRef, name: string) => `${scopeParent(parent)}/${name}`;
  const requestKey = (parent: ScopeRef, requestId: string) =>
    `${scopeParent(parent)}\u0000${requestId}`;

  const record = (parent: ScopeRef, added: NewOperation, version: number) => {
    const stored: OperationRecord = { ...copy(added), ...parent, version };
    const key = operationKey(parent, stored.operation.name);
    operations.set(key, stored);
    if (stored.doneAt === undefined) runningOrder.add(key);
    else if (!doneOrder.has(key)) {
      runningOrder.delete(key);
      doneOrder.add(key);
    }
    listOf(parent).put(stored.operation);
    if (stored.requestId)
      requestIds.set(requestKey(parent, stored.requestId), stored.operation.name);
    return copy(stored);
  };
  const forget = (stored: OperationRecord) => {
    const key = operationKey(stored, stored.operation.name);
    operations.delete(key);
    runningOrder.delete(key);
    doneOrder.delete(key);
    listOf(stored).delete(stored.operation.name);
    if (stored.requestId) requestIds.delete(requestKey(stored, stored.requestId));
  };
  const replay = (parent: ScopeRef, requestId: string | undefined) => {
    if (!requestId) return undefined;
    const name = requestIds.get(requestKey(parent, requestId));
    const stored = name ? operations.get(operationKey(parent, name)) : undefined;
    return stored ? copy(stored) : undefined;
  };

  return {
    record,
    replay,
    clear: () => {
      for (const map of [operations, lists, requestIds]) map.clear();
      runningOrder.clear();
      doneOrder.clear();
    },
    insert: async (parent, added) => record(parent, added, 1),
    get: async (parent, name) => {
      const stored = operations.get(operationKey(parent, name));
      return stored ? copy(stored) : undefined;
    },
    byRequestId: async (parent, requestId) => replay(parent, requestId),
    update: async (next) => {
      const current = operations.get(operationKey(next, next.operation.name));
      if (!current) {
        throw new Refusal('not_found', `operation ${next.operation.name} does not exist`);
      }
      if (current.version !== next.version) {
        throw new Refusal(
          'condition_failed',
          `operation ${next.operation.name} changed (version ${current.version}, not ${next.version})`,
        );
      }
      return record(next, next, next.version + 1);
    },
    delete: async (parent, name) => {
      const stored = operations.get(operationKey(parent, name));
      if (!stored) return false;
      forget(stored);
      return true;
    },
    running: async (parent) =>
      [...runningOrder]
        .map((key) => operations.get(key)!)
        .filter((r) => scopeParent(r) === scopeParent(parent))
        .map(copy),
    list: async (parent, request) =>
      listOf(parent).list({
        ...request,
        context: { ...request.context, collection: tokenParent(parent, 'operations') },
      }),
    // Each queue from its oldest end, stopping at the first that stays: expiry costs what
    // expires, not what is kept.
    expire: async ({ doneBefore, keep, keepRunning }) => {
      let dropped = 0;
      for (const key of doneOrder) {
        const stored = operations.get(key)!;
        if (stored.doneAt! >= doneBefore && doneOrder.size <= keep) break;
        forget(stored);
        dropped++;
      }
      for (const key of runningOrder) {
        if (keepRunning === undefined || runningOrder.size <= keepRunning) break;
        forget(operations.get(key)!);
        dropped++;
      }
      return dropped;
    },
    records: () => [...operations.values()].map(copy),
    all: async () => [...operations.values()].map(copy),
  };
}
