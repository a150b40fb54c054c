import { Collection, type PageTokenCodec } from '@listkit/query';
import { StoreError } from '../core/store-error.js';
import { clashAddressOf } from '../forwarding-rules/create/clash-rule.js';
import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import {
  aggregatedRuleCollection,
  regionRuleCollection,
} from '../forwarding-rules/forwarding-rule-collection.js';
import { RegionAddresses } from '../forwarding-rules/region-addresses.js';
import { type ScopeRef, scopeOf } from '../names/scopes.js';
import { operationSchema } from '../operations/operation-schema.js';
import type { OperationJson } from '../operations/operations.js';
import type { OrderState } from '../orders/order.js';
import {
  aggregatedTokenParent,
  type EmulatorStore,
  type NewOperation,
  type OperationRecord,
  type RegionCheck,
  type RuleWrite,
  regionParent,
  tokenParent,
  type WriteResult,
} from './store.js';

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
  const { pageTokens } = options;
  const regions = new Map<string, Collection<ForwardingRuleJson>>();
  const addresses = new Map<string, RegionAddresses>();
  const projects = new Map<string, Collection<ForwardingRuleJson>>();
  const operations = new Map<string, OperationRecord>();
  /** Keys of running operations in start order, and of done ones in completion order (expiry). */
  const runningOrder = new Set<string>();
  const doneOrder = new Set<string>();
  const operationLists = new Map<string, Collection<OperationJson>>();
  const requestIds = new Map<string, string>();
  const orders = new Map<string, OrderState>();
  const settings = new Map<string, string>();
  let requestLog: Record<string, unknown>[] = [];

  const collectionOf = <T extends object>(
    map: Map<string, Collection<T>>,
    key: string,
    create: () => Collection<T>,
  ) => {
    let collection = map.get(key);
    if (!collection) {
      collection = create();
      map.set(key, collection);
    }
    return collection;
  };
  const rulesIn = (parent: ScopeRef) =>
    collectionOf(regions, regionParent(parent), () => regionRuleCollection(pageTokens));
  const aggregate = (project: string) =>
    collectionOf(projects, project, () => aggregatedRuleCollection(pageTokens));
  const operationsIn = (parent: string) =>
    collectionOf(
      operationLists,
      parent,
      () => new Collection<OperationJson>(operationSchema, { pageTokens }),
    );
  const addressesIn = (parent: ScopeRef) => {
    const key = regionParent(parent);
    let region = addresses.get(key);
    if (!region) {
      region = new RegionAddresses();
      addresses.set(key, region);
    }
    return region;
  };
  const operationKey = (parent: ScopeRef, name: string) => `${regionParent(parent)}/${name}`;
  const requestKey = (parent: ScopeRef, requestId: string) =>
    `${regionParent(parent)}\u0000${requestId}`;

  const copy = <T>(value: T): T => structuredClone(value);

  const putOperation = (parent: ScopeRef, added: NewOperation, version: number) => {
    const record: OperationRecord = { ...copy(added), ...parent, version };
    const key = operationKey(parent, record.operation.name);
    operations.set(key, record);
    if (record.doneAt === undefined) runningOrder.add(key);
    else if (!doneOrder.has(key)) {
      runningOrder.delete(key);
      doneOrder.add(key);
    }
    operationsIn(regionParent(parent)).put(record.operation);
    if (record.requestId)
      requestIds.set(requestKey(parent, record.requestId), record.operation.name);
    return copy(record);
  };
  const forgetOperation = (record: OperationRecord) => {
    const key = operationKey(record, record.operation.name);
    operations.delete(key);
    runningOrder.delete(key);
    doneOrder.delete(key);
    operationsIn(regionParent(record)).delete(record.operation.name);
    if (record.requestId) requestIds.delete(requestKey(record, record.requestId));
  };
  const replay = (parent: ScopeRef, requestId: string | undefined): WriteResult | undefined => {
    if (!requestId) return undefined;
    const name = requestIds.get(requestKey(parent, requestId));
    const record = name ? operations.get(operationKey(parent, name)) : undefined;
    return record ? { operation: copy(record), replayed: true } : undefined;
  };
  const written = (parent: ScopeRef, rule: ForwardingRuleJson, write: RuleWrite): WriteResult => ({
    operation: putOperation(parent, write.operation(rule), 1),
    replayed: false,
    rule: copy(rule),
  });
  const saveRule = (parent: ScopeRef, rule: ForwardingRuleJson) => {
    const stored = copy(rule);
    const region = rulesIn(parent);
    const replaced = region.get(rule.name);
    if (replaced) addressesIn(parent).remove(replaced);
    addressesIn(parent).add(stored);
    region.put(stored);
    aggregate(parent.project).put(stored);
  };
  const alreadyExists = (parent: ScopeRef, name: string) =>
    new StoreError(
      'already_exists',
      `The resource '${regionParent(parent)}/forwardingRules/${name}' already exists`,
    );
  /**
   * Runs a write's RegionCheck: the address first, then the check over the rules at it. Callers
   * decide about the name before (a 409 takes no address).
   */
  const checked = (parent: ScopeRef, rule: ForwardingRuleJson, check: RegionCheck | undefined) => {
    if (!check) return rule;
    const region = addressesIn(parent);
    let candidate = rule;
    if (check.allocate && rule.IPAddress === undefined) {
      candidate = { ...rule, IPAddress: region.allocate(check.allocate, parent.region) };
    }
    const address = clashAddressOf(candidate);
    const sameAddress =
      address === undefined ? [] : region.rulesAt(address).filter((r) => r.name !== rule.name);
    return check.check(candidate, sameAddress);
  };
  const notFound = (parent: ScopeRef, name: string) =>
    new StoreError(
      'not_found',
      `The resource '${regionParent(parent)}/forwardingRules/${name}' was not found`,
    );

  return {
    kind: 'memory',
    rules: {
      insert: async (parent, rule, write) => {
        const earlier = replay(parent, write.requestId);
        if (earlier) return earlier;
        if (rulesIn(parent).get(rule.name)) throw alreadyExists(parent, rule.name);
        const stored = checked(parent, rule, write.check);
        saveRule(parent, stored);
        return written(parent, stored, write);
      },
      get: async (parent, name) => {
        const rule = regions.get(regionParent(parent))?.get(name);
        return rule ? copy(rule) : undefined;
      },
      update: async (parent, rule, write) => {
        const earlier = replay(parent, write.requestId);
        if (earlier) return earlier;
        const region = rulesIn(parent);
        const current = region.get(rule.name);
        if (!current) throw notFound(parent, rule.name);
        if (current.fingerprint !== write.expectedFingerprint) {
          throw new StoreError(
            'condition_failed',
            `the fingerprint of ${rule.name} is ${String(current.fingerprint)}, not ${write.expectedFingerprint}`,
          );
        }
        const stored = checked(parent, rule, write.check);
        saveRule(parent, stored);
        return written(parent, stored, write);
      },
      put: async (parent, rule, check) => {
        const replaced = rulesIn(parent).get(rule.name);
        if (replaced) {
          // The version replaced gives up its address first: the new one may take it again.
          addressesIn(parent).remove(replaced);
          aggregate(parent.project).delete(String(replaced.selfLink));
        }
        saveRule(parent, checked(parent, rule, check));
      },
      delete: async (parent, name, write) => {
        const earlier = replay(parent, write.requestId);
        if (earlier) return earlier;
        const rule = regions.get(regionParent(parent))?.get(name);
        if (!rule) throw notFound(parent, name);
        rulesIn(parent).delete(name);
        addressesIn(parent).remove(rule);
        aggregate(parent.project).delete(String(rule.selfLink));
        return written(parent, rule, write);
      },
      list: (parent, request) =>
        rulesIn(parent).list({ ...request, parent: tokenParent(parent, 'forwardingRules') }),
      listAggregated: (project, request) =>
        aggregate(project).list({ ...request, parent: aggregatedTokenParent(project) }),
      all: async () =>
        [...regions].flatMap(([parent, collection]) => {
          const scope = scopeOf(parent);
          return collection.values().map((rule) => ({ ...scope, rule: copy(rule) }));
        }),
    },
    operations: {
      insert: async (parent, added) => putOperation(parent, added, 1),
      get: async (parent, name) => {
        const record = operations.get(operationKey(parent, name));
        return record ? copy(record) : undefined;
      },
      byRequestId: async (parent, requestId) => replay(parent, requestId)?.operation,
      update: async (record) => {
        const current = operations.get(operationKey(record, record.operation.name));
        if (!current) {
          throw new StoreError('not_found', `operation ${record.operation.name} does not exist`);
        }
        if (current.version !== record.version) {
          throw new StoreError(
            'condition_failed',
            `operation ${record.operation.name} changed (version ${current.version}, not ${record.version})`,
          );
        }
        return putOperation(record, record, record.version + 1);
      },
      delete: async (parent, name) => {
        const record = operations.get(operationKey(parent, name));
        if (!record) return false;
        forgetOperation(record);
        return true;
      },
      running: async (parent) =>
        [...runningOrder]
          .map((key) => operations.get(key)!)
          .filter((r) => regionParent(r) === regionParent(parent))
          .map(copy),
      list: async (parent, request) =>
        operationsIn(regionParent(parent)).list({
          ...request,
          parent: tokenParent(parent, 'operations'),
        }),
      // Each queue from its oldest end, stopping at the first that stays: expiry costs what
      // expires, not what is kept.
      expire: async ({ doneBefore, keep, keepRunning }) => {
        let dropped = 0;
        for (const key of doneOrder) {
          const record = operations.get(key)!;
          if (record.doneAt! >= doneBefore && doneOrder.size <= keep) break;
          forgetOperation(record);
          dropped++;
        }
        for (const key of runningOrder) {
          if (keepRunning === undefined || runningOrder.size <= keepRunning) break;
          forgetOperation(operations.get(key)!);
          dropped++;
        }
        return dropped;
      },
      all: async () => [...operations.values()].map(copy),
    },
    orders: {
      put: async (order) => {
        orders.set(orderKey(order.packageName, order.orderId), copy(order));
      },
      get: async (packageName, orderId) => {
        const order = orders.get(orderKey(packageName, orderId));
        return order ? copy(order) : undefined;
      },
      refund: async (refunded) => {
        const key = orderKey(refunded.packageName, refunded.orderId);
        const current = orders.get(key);
        if (!current) {
          throw new StoreError('not_found', `order ${refunded.orderId} does not exist`);
        }
        if (current.refund) {
          throw new StoreError(
            'already_refunded',
            `order ${refunded.orderId} was refunded at ${current.refund.time}`,
          );
        }
        orders.set(key, copy(refunded));
        return copy(refunded);
      },
      all: async () => [...orders.values()].map(copy),
    },
    state: {
      get: async <T>(key: string) => {
        const text = settings.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as T);
      },
      set: async (key, value) => {
        settings.set(key, JSON.stringify(value));
      },
      appendRequest: async (entry, capacity) => {
        requestLog.push(copy(entry));
        if (requestLog.length > capacity) requestLog = requestLog.slice(-capacity);
      },
      requests: async () => requestLog.map(copy),
    },
    reset: async () => {
      for (const map of [regions, addresses, projects, operations, operationLists, requestIds])
        map.clear();
      orders.clear();
      runningOrder.clear();
      doneOrder.clear();
      settings.clear();
      requestLog = [];
    },
    close: async () => undefined,
  };
}

const orderKey = (packageName: string, orderId: string) => `${packageName}\u0000${orderId}`;
