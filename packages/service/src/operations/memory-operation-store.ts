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
  /**
   * Tables of these operations, checked and indexed, apart from the store ({@link adopt} puts a
   * copy in): a restore builds them once per snapshot. Throws when one does not fit the schema.
   */
  prepare(records: readonly OperationRecord[]): OperationTables;
  /** Replaces every operation by a copy of these tables' (a restore), synchronously. */
  adopt(tables: OperationTables): void;
}

/**
 * What the memory store keeps of its operations: by key, the running and done keys in order
 * (for expiry), a `Collection` per scope (for lists) and the requestIds seen.
 */
export interface OperationTables {
  readonly operations: Map<string, OperationRecord>;
  /** Keys of running operations in start order, and of done ones in completion order (expiry). */
  readonly runningOrder: Set<string>;
  readonly doneOrder: Set<string>;
  readonly lists: Map<string, Collection<OperationJson>>;
  readonly requestIds: Map<string, string>;
}

const emptyTables = (): OperationTables => ({
  operations: new Map(),
  runningOrder: new Set(),
  doneOrder: new Set(),
  lists: new Map(),
  requestIds: new Map(),
});

/** Independent tables of the same operations (the records shared: none is changed in place). */
const copyTables = (tables: OperationTables): OperationTables => ({
  operations: new Map(tables.operations),
  runningOrder: new Set(tables.runningOrder),
  doneOrder: new Set(tables.doneOrder),
  lists: new Map([...tables.lists].map(([key, list]) => [key, list.copy()])),
  requestIds: new Map(tables.requestIds),
});

const copy = <T>(value: T): T => structuredClone(value);

const operationKey = (parent: ScopeRef, name: string) => `${scopeParent(parent)}/${name}`;
const requestKey = (parent: ScopeRef, requestId: string) =>
  `${scopeParent(parent)}\u0000${requestId}`;

/** The scope's list of these tables, created the first time. */
function listIn(tables: OperationTables, parent: ScopeRef, pageTokens: PageTokenCodec) {
  const key = scopeParent(parent);
  let list = tables.lists.get(key);
  if (!list) {
    list = new Collection<OperationJson>(operationSchema, { pageTokens });
    tables.lists.set(key, list);
  }
  return list;
}

/** Stores a record in these tables (the store's, or ones being prepared); returns it. */
function storeIn(
  tables: OperationTables,
  parent: ScopeRef,
  stored: OperationRecord,
  pageTokens: PageTokenCodec,
): OperationRecord {
  const { operations, runningOrder, doneOrder, requestIds } = tables;
  const key = operationKey(parent, stored.operation.name);
  operations.set(key, stored);
  if (stored.doneAt === undefined) runningOrder.add(key);
  else if (!doneOrder.has(key)) {
    runningOrder.delete(key);
    doneOrder.add(key);
  }
  listIn(tables, parent, pageTokens).put(stored.operation);
  if (stored.requestId) requestIds.set(requestKey(parent, stored.requestId), stored.operation.name);
  return stored;
}

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
  let tables = emptyTables();

  const listOf = (parent: ScopeRef) => listIn(tables, parent, pageTokens);
  const store = (parent: ScopeRef, added: NewOperation, version: number, into: OperationTables) =>
    storeIn(into, parent, { ...copy(added), ...parent, version }, pageTokens);
  const record = (parent: ScopeRef, added: NewOperation, version: number) =>
    copy(store(parent, added, version, tables));
  const forget = (stored: OperationRecord) => {
    const { operations, runningOrder, doneOrder, requestIds } = tables;
    const key = operationKey(stored, stored.operation.name);
    operations.delete(key);
    runningOrder.delete(key);
    doneOrder.delete(key);
    listOf(stored).delete(stored.operation.name);
    if (stored.requestId) requestIds.delete(requestKey(stored, stored.requestId));
  };
  const replay = (parent: ScopeRef, requestId: string | undefined) => {
    if (!requestId) return undefined;
    const name = tables.requestIds.get(requestKey(parent, requestId));
    const stored = name ? tables.operations.get(operationKey(parent, name)) : undefined;
    return stored ? copy(stored) : undefined;
  };

  return {
    record,
    replay,
    clear: () => {
      tables = emptyTables();
    },
    prepare: (records) => {
      const prepared = emptyTables();
      for (const { project, region, version, ...added } of records) {
        const parent = region === undefined ? { project } : { project, region };
        store(parent, added, version, prepared);
      }
      return prepared;
    },
    adopt: (prepared) => {
      tables = copyTables(prepared);
    },
    insert: async (parent, added) => record(parent, added, 1),
    get: async (parent, name) => {
      const stored = tables.operations.get(operationKey(parent, name));
      return stored ? copy(stored) : undefined;
    },
    byRequestId: async (parent, requestId) => replay(parent, requestId),
    update: async (next) => {
      const current = tables.operations.get(operationKey(next, next.operation.name));
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
      const stored = tables.operations.get(operationKey(parent, name));
      if (!stored) return false;
      forget(stored);
      return true;
    },
    running: async (parent) =>
      [...tables.runningOrder]
        .map((key) => tables.operations.get(key)!)
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
      const { operations, runningOrder, doneOrder } = tables;
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
    records: () => [...tables.operations.values()].map(copy),
    all: async () => [...tables.operations.values()].map(copy),
  };
}
