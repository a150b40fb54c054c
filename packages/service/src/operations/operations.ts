import type { ListPage, ListRequest } from '@listkit/query';
import type { EmulatorClock } from '../core/clock.js';
import { resourceNotFound } from '../core/compute-refusals.js';
import { newNumericId, newOperationName } from '../core/ids.js';
import { isRefusal, type Refusal } from '../core/refusal.js';
import type { ComputeUrls } from '../names/compute-urls.js';
import { type ScopeRef, scopedName } from '../names/resource-names.js';
import { httpErrorMessageOf, type OperationFailure, type OperationJson } from './operation.js';
import type { OperationPolicy } from './operation-policy.js';
import type { NewOperation, OperationRecord, OperationStore } from './operation-store.js';

export type { OperationJson } from './operation.js';

/** What starts an operation. */
export interface OperationStart {
  project: string;
  /** The region of a regional operation; absent for a global one. */
  region?: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  user: string;
  /** Completes the operation as failed with this error. */
  failure?: OperationFailure;
  /** Overrides the emulator's policy (setLabels answers DONE at once, as recorded). */
  policy?: OperationPolicy;
  /** The request's requestId: a retry with it returns this operation. */
  requestId?: string;
}

/**
 * The wire answer of a stored operation: a copy without the list engine's creation time.
 *
 * @example
 * ```ts
 * operationAnswer(record.operation).creationTimestamp; // undefined
 * ```
 */
export function operationAnswer(stored: OperationJson): OperationJson {
  const { creationTimestamp: _, ...answer } = stored;
  return answer;
}

/** What the emulator keeps beside an operation's wire form (the store's `meta`, as JSON). */
interface OperationMeta {
  /** Reads (get, wait) so far: the `polls` policy counts them. */
  reads: number;
  startedAt: number;
  policy: OperationPolicy;
  failure?: OperationFailure;
}

/** Options of {@link Operations}. */
export interface OperationsOptions {
  store: OperationStore;
  clock: EmulatorClock;
  urls: ComputeUrls;
  policy: () => OperationPolicy;
  /** How long completed operations are kept, on the emulator's clock. */
  retentionMs: number;
  /**
   * The most completed operations kept (all regions), the oldest dropped first; running ones
   * beyond the same count go too, the oldest first.
   */
  retentionCount: number;
  /**
   * The longest an operation stays RUNNING, on the emulator's clock, whatever the policy: an
   * operation nobody polls completes then, so it can be swept.
   */
  maxRunningMs: number;
  /** How long `wait` waits at most, in real milliseconds. */
  waitTimeoutMs: number;
}

/** How often a read retries when another request changed the operation in between. */
const MAX_RACES = 20;

/**
 * A write sweeps retention only every this many writes (issue 26: the sweep was a transaction of
 * its own after every write). Clients never see the difference: every read of operations (get,
 * wait, HEAD, delete, list, a requestId lookup, the control plane's list) sweeps first, so the
 * writes' sweep only bounds what the store keeps, to the count plus this many per process.
 */
export const SWEEP_EVERY_WRITES = 64;

/**
 * The regional operations of the emulator, kept in the store: created with the writes they
 * track, advanced by reads according to the completion policy (and completed at the latest
 * `maxRunningMs` after they start), listed with the same filter/orderBy/paging engine as
 * resources, and dropped `retentionMs` after they complete or beyond `retentionCount`. A read
 * that advances an operation stores it by a conditional update, so reads in several processes
 * never lose a poll.
 */
export class Operations {
  /** Writes since this process last swept. */
  private writesSinceSweep = 0;

  constructor(private readonly options: OperationsOptions) {}

  /** The operation a write records (in the write's transaction): RUNNING unless immediate. */
  newOperation(init: OperationStart): NewOperation {
    const { clock, urls } = this.options;
    const now = clock.now();
    const iso = new Date(now).toISOString();
    const name = newOperationName(now);
    const operation: OperationJson = {
      kind: 'compute#operation',
      id: newNumericId(),
      name,
      creationTimestamp: iso,
      operationType: init.operationType,
      targetLink: init.targetLink,
      targetId: init.targetId,
      status: 'RUNNING',
      progress: 0,
      user: init.user,
      insertTime: iso,
      startTime: iso,
      ...(init.region === undefined ? {} : { region: urls.region(init.project, init.region) }),
      selfLink: urls.operation(init.project, init.region, name),
    };
    const meta: OperationMeta = {
      reads: 0,
      startedAt: now,
      policy: init.policy ?? this.options.policy(),
      ...(init.failure ? { failure: init.failure } : {}),
    };
    const { requestId } = init;
    const started: NewOperation = {
      operation,
      meta: { ...meta },
      ...(requestId ? { requestId } : {}),
    };
    // setLabels-style operations are DONE in their first answer.
    if (meta.policy.mode === 'duration' && meta.policy.ms === 0) return this.completed(started);
    return started;
  }

  /** Records an operation not tied to a rule write, and returns its first answer. */
  async start(init: OperationStart): Promise<OperationJson> {
    const record = await this.options.store.insert(init, this.newOperation(init));
    await this.wrote();
    return operationAnswer(record.operation);
  }

  /**
   * The operation started earlier with this requestId in this region, as it stands now (not
   * counted as a read), or undefined.
   */
  async byRequestId(where: ScopeRef, requestId: string): Promise<OperationJson | undefined> {
    // A retry of an operation past retention starts anew: drop what retention drops first.
    await this.sweep();
    const record = await this.options.store.byRequestId(where, requestId);
    if (!record) return undefined;
    return operationAnswer((await this.advance(record, false)).operation);
  }

  /** `GET …/operations/{name}`: one read, which may advance the operation. */
  async get(where: ScopeRef, name: string): Promise<OperationJson> {
    await this.sweep();
    return operationAnswer((await this.advance(await this.find(where, name), true)).operation);
  }

  /** The operation as it stands, without counting a read (HEAD): only time may advance it. */
  async peek(where: ScopeRef, name: string): Promise<OperationJson> {
    await this.sweep();
    return operationAnswer((await this.advance(await this.find(where, name), false)).operation);
  }

  /**
   * `POST …/operations/{name}/wait`: answers when the operation is DONE or after the wait
   * timeout. Each call counts as one read for the `polls` policy.
   */
  async wait(where: ScopeRef, name: string): Promise<OperationJson> {
    await this.sweep();
    let record = await this.advance(await this.find(where, name), true);
    const deadline = Date.now() + this.options.waitTimeoutMs;
    // Only time completes an operation without reads: a timed one is waited for.
    const meta = () => record.meta as unknown as OperationMeta;
    while (
      record.operation.status !== 'DONE' &&
      meta().policy.mode === 'duration' &&
      Date.now() < deadline
    ) {
      const policy = meta().policy as { ms: number };
      const remaining = meta().startedAt + policy.ms - this.options.clock.now();
      await sleep(Math.max(1, Math.min(remaining, deadline - Date.now(), 50)));
      const current = await this.options.store.get(where, name);
      if (!current) break;
      record = await this.advance(current, false);
    }
    return operationAnswer(record.operation);
  }

  /** `DELETE …/operations/{name}`. */
  async delete(where: ScopeRef, name: string): Promise<void> {
    await this.sweep();
    if (!(await this.options.store.delete(where, name))) throw operationNotFound(where, name);
  }

  /** `GET …/operations`, with the list engine; time-based completions are applied first. */
  async page(
    where: ScopeRef,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<OperationJson>> {
    await this.sweep();
    for (const record of await this.options.store.running(where)) await this.advance(record, false);
    const page = await this.options.store.list(where, request);
    return { ...page, items: page.items.map(operationAnswer) };
  }

  /** Every operation kept, as its wire answer (the control plane). */
  async all(): Promise<OperationJson[]> {
    await this.sweep();
    return (await this.options.store.all()).map((r) => operationAnswer(r.operation));
  }

  /**
   * Drops operations done more than `retentionMs` ago and the oldest beyond `retentionCount`
   * (done ones, then running ones).
   */
  async sweep(): Promise<void> {
    this.writesSinceSweep = 0;
    const { store, clock, retentionMs, retentionCount } = this.options;
    await store.expire({
      doneBefore: clock.now() - retentionMs,
      keep: retentionCount,
      keepRunning: retentionCount,
    });
  }

  /**
   * After a committed write: sweeps every {@link SWEEP_EVERY_WRITES} writes (reads sweep before
   * they answer, so this only bounds what the store keeps).
   */
  async wrote(): Promise<void> {
    this.writesSinceSweep += 1;
    if (this.writesSinceSweep >= SWEEP_EVERY_WRITES) await this.sweep();
  }

  private async find(where: ScopeRef, name: string): Promise<OperationRecord> {
    const record = await this.options.store.get(where, name);
    if (!record) throw operationNotFound(where, name);
    return record;
  }

  /**
   * Moves an operation along its policy and stores the change by a conditional update; when
   * another request changed it in between, reads it again and retries.
   */
  private async advance(record: OperationRecord, isRead: boolean): Promise<OperationRecord> {
    let current = record;
    for (let race = 0; race < MAX_RACES; race++) {
      const next = this.step(current, isRead);
      if (!next) return current;
      try {
        return await this.options.store.update(next);
      } catch (error) {
        if (!isRefusal(error, 'condition_failed')) {
          if (isRefusal(error, 'not_found')) throw operationNotFound(record, record.operation.name);
          throw error;
        }
        const fresh = await this.options.store.get(record, record.operation.name);
        if (!fresh) throw operationNotFound(record, record.operation.name);
        current = fresh;
      }
    }
    return current;
  }

  /** The operation after one read (or none): undefined when nothing changes. Progress never decreases. */
  private step(record: OperationRecord, isRead: boolean): OperationRecord | undefined {
    if (record.operation.status === 'DONE') return undefined;
    const meta = record.meta as unknown as OperationMeta;
    const reads = meta.reads + (isRead ? 1 : 0);
    const { policy, startedAt } = meta;
    const now = this.options.clock.now();
    let fraction: number;
    if (policy.mode === 'immediate') fraction = reads > 0 ? 1 : 0;
    else if (policy.mode === 'polls') fraction = reads / policy.polls;
    else fraction = policy.ms === 0 ? 1 : (now - startedAt) / policy.ms;
    const read = { ...record, meta: { ...meta, reads } };
    if (fraction >= 1 || now - startedAt >= this.options.maxRunningMs) return this.completed(read);
    const progress = Math.max(record.operation.progress, Math.min(99, Math.floor(fraction * 100)));
    if (progress === record.operation.progress && reads === meta.reads) return undefined;
    return { ...read, operation: { ...record.operation, progress } };
  }

  private completed<T extends NewOperation>(record: T): T {
    // A timed operation finished when its duration elapsed, even if it is read much later.
    // An operation nobody read finished when maxRunningMs elapsed.
    const meta = record.meta as unknown as OperationMeta;
    const { policy } = meta;
    const deadline =
      meta.startedAt +
      Math.min(this.options.maxRunningMs, policy.mode === 'duration' ? policy.ms : Infinity);
    const now = Math.min(this.options.clock.now(), deadline);
    const operation: OperationJson = {
      ...record.operation,
      status: 'DONE',
      progress: 100,
      endTime: new Date(now).toISOString(),
    };
    if (meta.failure) {
      const { status, code, message, location } = meta.failure;
      operation.error = { errors: [{ code, message, ...(location ? { location } : {}) }] };
      operation.httpErrorStatusCode = status;
      operation.httpErrorMessage = httpErrorMessageOf(status);
    }
    return { ...record, operation, doneAt: now };
  }
}

/** The refusal of an unknown operation, named as Compute Engine names it. */
export function operationNotFound(where: ScopeRef, name: string): Refusal {
  return resourceNotFound(scopedName(where, 'operations', name));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
