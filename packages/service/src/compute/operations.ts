import { Collection, type ListPage, type ListRequest, type PageTokenCodec } from '@listkit/query';
import type { EmulatorClock } from '../clock.js';
import { type ApiError, errors, statusText } from '../http/api-error.js';
import type { ComputeUrls } from './compute-urls.js';
import { newNumericId, newOperationName } from './ids.js';
import type { OperationPolicy } from './operation-policy.js';
import { operationSchema } from './operation-schema.js';

/**
 * A Compute Engine Operation as it is sent on the wire. Answers carry no `creationTimestamp`: the
 * field is deprecated and recorded real answers never carry it (docs/decisions.md).
 */
export type OperationJson = {
  kind: 'compute#operation';
  id: string;
  name: string;
  /**
   * The creation time the list engine and the stores order by; never in an answer (the routes
   * answer through {@link Operations}, which removes it).
   */
  creationTimestamp?: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  status: 'PENDING' | 'RUNNING' | 'DONE';
  progress: number;
  user: string;
  insertTime: string;
  startTime: string;
  endTime?: string;
  region: string;
  selfLink: string;
  clientOperationId?: string;
  error?: { errors: { code: string; message: string; location?: string }[] };
  httpErrorStatusCode?: number;
  httpErrorMessage?: string;
};

/** What starts an operation. */
export interface OperationStart {
  project: string;
  region: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  user: string;
  /** Completes the operation as failed with this error. */
  failure?: ApiError;
  /** Overrides the emulator's policy (setLabels answers DONE at once, as recorded). */
  policy?: OperationPolicy;
  /** The request's requestId: a retry with it returns this operation (see {@link byRequestId}). */
  requestId?: string;
}

/**
 * An operation as kept: the wire shape plus its creation time, which only the list engine reads
 * (`orderBy=creationTimestamp desc` and filters on it still work, as Compute accepts them).
 */
type StoredOperation = OperationJson & { creationTimestamp: string };

/** The wire answer of a stored operation: a copy without the list engine's creation time. */
function answer({ creationTimestamp: _, ...op }: StoredOperation): OperationJson {
  return op;
}

interface Entry {
  op: StoredOperation;
  parent: string;
  reads: number;
  startedAt: number;
  doneAt?: number;
  policy: OperationPolicy;
  failure?: ApiError;
  requestKey?: string;
}

/** Options of {@link Operations}. */
export interface OperationsOptions {
  clock: EmulatorClock;
  urls: ComputeUrls;
  pageTokens: PageTokenCodec;
  policy: () => OperationPolicy;
  /** How long completed operations are kept, on the emulator's clock. */
  retentionMs: number;
  /**
   * The most operations kept (all regions): the oldest completed go first; if only running ones
   * are left, the oldest of those complete and go.
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

/**
 * The regional operations of the emulator: created by writes, advanced by reads according to the
 * completion policy (and completed at the latest `maxRunningMs` after they start), listed with the
 * same filter/orderBy/paging engine as resources, and dropped `retentionMs` after they complete or
 * when more than `retentionCount` are complete, so that memory stays bounded. Expiry walks two
 * queues from their oldest end, so it costs what expires, not what is kept.
 */
export class Operations {
  private readonly entries = new Map<string, Entry>();
  /** RUNNING operations by key, in start order (the oldest first). */
  private readonly running = new Map<string, Entry>();
  /** RUNNING operations per parent, for the time-based updates a list applies. */
  private readonly runningIn = new Map<string, Set<Entry>>();
  /** DONE operations by key, in completion order (the oldest first). */
  private readonly done = new Map<string, Entry>();
  /** requestId (scoped to project and region) → entry key. */
  private readonly requests = new Map<string, string>();
  private readonly lists = new Map<string, Collection<StoredOperation>>();

  constructor(private readonly options: OperationsOptions) {}

  /** Starts an operation and returns its first answer (RUNNING, progress 0, unless immediate). */
  start(init: OperationStart): OperationJson {
    const { clock, urls } = this.options;
    const now = clock.now();
    const iso = new Date(now).toISOString();
    const name = newOperationName(now);
    const parent = `projects/${init.project}/regions/${init.region}`;
    const op: StoredOperation = {
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
      region: urls.region(init.project, init.region),
      selfLink: urls.operation(init.project, init.region, name),
    };
    const entry: Entry = {
      op,
      parent,
      reads: 0,
      startedAt: now,
      policy: init.policy ?? this.options.policy(),
      failure: init.failure,
      requestKey: init.requestId ? `${parent}/${init.requestId.toLowerCase()}` : undefined,
    };
    const key = `${parent}/${name}`;
    this.entries.set(key, entry);
    this.running.set(key, entry);
    let inParent = this.runningIn.get(parent);
    if (!inParent) {
      inParent = new Set();
      this.runningIn.set(parent, inParent);
    }
    inParent.add(entry);
    if (entry.requestKey) this.requests.set(entry.requestKey, key);
    // setLabels-style operations are DONE in their first answer.
    if (entry.policy.mode === 'duration' && entry.policy.ms === 0) this.complete(entry);
    this.list(parent).put(op);
    this.sweep(); // after adding it, so that the count holds
    return answer(op);
  }

  /**
   * The operation started earlier with this requestId in this project and region, as it stands
   * now (not counted as a read), or undefined.
   */
  byRequestId(project: string, region: string, requestId: string): OperationJson | undefined {
    this.sweep();
    const key = this.requests.get(
      `projects/${project}/regions/${region}/${requestId.toLowerCase()}`,
    );
    const entry = key ? this.entries.get(key) : undefined;
    if (!entry) return undefined;
    this.advance(entry, false); // time-based completion applies; a retry is not a poll
    return answer(entry.op);
  }

  /** `GET …/operations/{name}`: one read, which may advance the operation. */
  get(project: string, region: string, name: string): OperationJson {
    const entry = this.find(project, region, name);
    this.advance(entry, true);
    return answer(entry.op);
  }

  /** The operation as it stands, without counting a read (HEAD): only time may advance it. */
  peek(project: string, region: string, name: string): OperationJson {
    const entry = this.find(project, region, name);
    this.advance(entry, false);
    return answer(entry.op);
  }

  /**
   * `POST …/operations/{name}/wait`: answers when the operation is DONE or after the wait
   * timeout. Each call counts as one read for the `polls` policy.
   */
  async wait(project: string, region: string, name: string): Promise<OperationJson> {
    const entry = this.find(project, region, name);
    this.advance(entry, true);
    const deadline = Date.now() + this.options.waitTimeoutMs;
    while (
      entry.op.status !== 'DONE' &&
      entry.policy.mode === 'duration' &&
      Date.now() < deadline
    ) {
      const remaining = entry.startedAt + entry.policy.ms - this.options.clock.now();
      await sleep(Math.max(1, Math.min(remaining, deadline - Date.now(), 50)));
      this.advance(entry, false);
    }
    return answer(entry.op);
  }

  /** `DELETE …/operations/{name}`. */
  delete(project: string, region: string, name: string): void {
    const entry = this.find(project, region, name);
    this.forget(`${entry.parent}/${name}`, entry);
  }

  /** `GET …/operations`, with the list engine; time-based completions are applied first. */
  async page(
    project: string,
    region: string,
    request: Omit<ListRequest, 'parent'>,
  ): Promise<ListPage<OperationJson>> {
    const parent = `projects/${project}/regions/${region}`;
    this.sweep();
    for (const entry of [...(this.runningIn.get(parent) ?? [])]) this.advance(entry, false);
    // Bound to the collection (operations), not only the region: a rules token is refused here.
    const page = await this.list(parent).list({ ...request, parent: `${parent}/operations` });
    return { ...page, items: page.items.map(answer) };
  }

  /** Forgets every operation (reset). */
  clear(): void {
    this.entries.clear();
    this.running.clear();
    this.runningIn.clear();
    this.done.clear();
    this.requests.clear();
    this.lists.clear();
  }

  /** Every operation, for the control plane. */
  all(): OperationJson[] {
    return [...this.entries.values()].map((e) => answer(e.op));
  }

  private find(project: string, region: string, name: string): Entry {
    this.sweep();
    const entry = this.entries.get(`projects/${project}/regions/${region}/${name}`);
    if (!entry) {
      throw errors.notFound(
        `The resource 'projects/${project}/regions/${region}/operations/${name}' was not found`,
      );
    }
    return entry;
  }

  /** Moves an operation along its policy; progress never decreases. */
  private advance(entry: Entry, isRead: boolean): void {
    if (entry.op.status === 'DONE') return;
    if (isRead) entry.reads++;
    const { policy } = entry;
    let fraction: number;
    if (policy.mode === 'immediate') fraction = entry.reads > 0 ? 1 : 0;
    else if (policy.mode === 'polls') fraction = entry.reads / policy.polls;
    else fraction = policy.ms === 0 ? 1 : (this.options.clock.now() - entry.startedAt) / policy.ms;
    if (fraction >= 1 || this.options.clock.now() - entry.startedAt >= this.options.maxRunningMs) {
      this.complete(entry);
      return;
    }
    entry.op.progress = Math.max(entry.op.progress, Math.min(99, Math.floor(fraction * 100)));
    this.list(entry.parent).put(entry.op);
  }

  private complete(entry: Entry): void {
    // A timed operation finished when its duration elapsed, even if it is read much later.
    // An operation nobody read finished when maxRunningMs elapsed.
    const { policy } = entry;
    const deadline =
      entry.startedAt +
      Math.min(this.options.maxRunningMs, policy.mode === 'duration' ? policy.ms : Infinity);
    const now = Math.min(this.options.clock.now(), deadline);
    entry.op.status = 'DONE';
    entry.op.progress = 100;
    entry.op.endTime = new Date(now).toISOString();
    entry.doneAt = now;
    const key = `${entry.parent}/${entry.op.name}`;
    this.running.delete(key);
    this.runningIn.get(entry.parent)?.delete(entry);
    this.done.set(key, entry);
    if (entry.failure) {
      const item = entry.failure.item();
      entry.op.error = {
        errors: [
          {
            code: item.reason.toUpperCase(),
            message: item.message,
            ...(item.location ? { location: item.location } : {}),
          },
        ],
      };
      entry.op.httpErrorStatusCode = entry.failure.status;
      entry.op.httpErrorMessage = statusText(entry.failure.status);
    }
    this.list(entry.parent).put(entry.op);
  }

  /**
   * Completes operations RUNNING for `maxRunningMs`, then drops operations beyond
   * `retentionCount` or done more than `retentionMs` ago, each from the oldest end of its queue
   * (start order, completion order), stopping at the first that stays.
   */
  private sweep(): void {
    const { clock, maxRunningMs, retentionMs, retentionCount } = this.options;
    const now = clock.now();
    for (const entry of this.running.values()) {
      if (now - entry.startedAt < maxRunningMs) break;
      this.complete(entry); // removes it from `running`
    }
    const horizon = now - retentionMs;
    for (const [key, entry] of this.done) {
      if (this.entries.size <= retentionCount && entry.doneAt! >= horizon) break;
      this.forget(key, entry);
    }
    // Still over the count with nothing complete left to drop: writes outpace maxRunningMs, so
    // the oldest running operations complete now and go.
    for (const [key, entry] of this.running) {
      if (this.entries.size <= retentionCount) break;
      this.complete(entry);
      this.forget(key, entry);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.running.delete(key);
    this.runningIn.get(entry.parent)?.delete(entry);
    this.done.delete(key);
    if (entry.requestKey) this.requests.delete(entry.requestKey);
    this.list(entry.parent).delete(entry.op.name);
  }

  private list(parent: string): Collection<StoredOperation> {
    let list = this.lists.get(parent);
    if (!list) {
      list = new Collection<StoredOperation>(operationSchema, {
        pageTokens: this.options.pageTokens,
      });
      this.lists.set(parent, list);
    }
    return list;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
