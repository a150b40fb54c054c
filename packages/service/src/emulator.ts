import { PageTokenCodec } from '@listkit/query';
import type { Hono } from 'hono';
import { type AuthConfig, authenticate } from './auth/auth.js';
import { type Seed, seedState } from './control/seed.js';
import { loadSettings } from './control/settings.js';
import { DEFAULT_SNAPSHOT_LIMITS, EmulatorSnapshots } from './control/snapshots.js';
import { EmulatorClock } from './core/clock.js';
import { createEmulatorApp } from './emulator-app.js';
import type { EmulatorControls } from './emulator-controls.js';
import { EmulatorServer } from './emulator-server.js';
import type { EmulatorEnv, EmulatorState } from './emulator-state.js';
import { ForwardingRules } from './forwarding-rules/forwarding-rules.js';
import { pscServiceAttachmentWrites } from './forwarding-rules/psc-service-attachments.js';
import { checkGlobalTargetAndBackend } from './global-forwarding-rules/check-global-target.js';
import { pscGoogleApisWrites } from './global-forwarding-rules/psc-google-apis.js';
import { DEFAULT_BODY_LIMIT } from './http/body.js';
import type { CompressionOptions } from './http/compression.js';
import { Faults } from './http/faults.js';
import { RequestLog, type RequestRecord } from './http/request-log.js';
import { ComputeUrls, DEFAULT_COMPUTE_BASE_URL } from './names/compute-urls.js';
import type { OperationPolicy } from './operations/operation-policy.js';
import { Operations } from './operations/operations.js';
import { Orders } from './orders/orders.js';
import { parseAuthConfig } from './serve-config.js';
import { openStore, type StoreLocation } from './store/open-store.js';
import type { SnapshotInfo, SnapshotLimits } from './store/snapshot-shelf.js';
import type { EmulatorStore } from './store/store.js';

/**
 * Options of {@link createEmulator}.
 *
 * @example
 * ```ts
 * const options: EmulatorOptions = { auth: { mode: 'open' }, operationPolicy: { mode: 'duration', ms: 500 }, bodyLimit: 64 * 1024 };
 * const emulator = await createEmulator(options);
 * ```
 */
export interface EmulatorOptions {
  /** Base of every link in answers. Default `https://www.googleapis.com/compute/v1/`. */
  baseUrl?: string;
  /** `open` (default): any bearer token; `strict`: only configured tokens, scopes and permissions. */
  auth?: AuthConfig;
  /** When operations complete. Default `immediate` (DONE at the first poll). */
  operationPolicy?: OperationPolicy;
  /** How long completed operations are kept, on the emulator's clock. Default 1 hour. */
  operationRetentionMs?: number;
  /**
   * How many operations are kept at most (all regions): the oldest completed go first, then, if
   * writes outpace `operationMaxRunningMs`, the oldest running complete and go. Default 10,000.
   */
  operationRetentionCount?: number;
  /**
   * The longest an operation stays RUNNING on the emulator's clock, whatever the policy (an
   * operation nobody polls then completes and can be swept). Default 10 minutes.
   */
  operationMaxRunningMs?: number;
  /** The longest a `wait` call waits, in real milliseconds. Default 2000. */
  waitTimeoutMs?: number;
  /**
   * Page-token secrets, newest first; default: a random secret per emulator. Emulators sharing
   * a database need the same secrets (from their configuration) for a token of one to open on
   * another.
   */
  pageTokenSecrets?: string[];
  /**
   * Keep rules, operations and orders in PGlite (PostgreSQL in this process), persistent in this
   * directory, which is locked for this process. Default: in memory.
   */
  dataDir?: string;
  /**
   * Keep rules, operations and orders in this PostgreSQL database (`postgres://…`), which many
   * emulator processes may share. Default: in memory.
   */
  database?: string;
  /** Resources loaded at start and again on every reset. */
  seed?: Seed;
  /**
   * How many snapshots are kept, and how many bytes of them together (their exported text).
   * Default 64 and 256 MiB.
   */
  snapshotLimits?: Partial<SnapshotLimits>;
  /** Request bodies above this many bytes get 413. Default 1 MiB. */
  bodyLimit?: number;
  /** Receives one structured record per request (`listkit serve` prints them as JSON lines). */
  log?: (record: RequestRecord) => void;
  /** How many recent requests the control plane keeps. Default 1000. */
  requestLogSize?: number;
  /** The emulator's clock; tests may pass their own. */
  clock?: EmulatorClock;
  /**
   * Host names (`name`, or `name:port`) accepted in the `Host` header besides IP literals and
   * `localhost` on the served port; anything else is 403 (DNS rebinding). The check applies once
   * {@link Emulator.listen} runs, or from the start when this option is given.
   */
  allowedHosts?: readonly string[];
  /**
   * Gzip of JSON answers for clients whose `Accept-Encoding` accepts it, as Compute Engine
   * answers large lists; `false` sends every body as it is. Default: bodies of 8 KiB or more,
   * zlib level 1 (decision 0029,
   * docs/decisions/0029-gzip-as-googles-apis-answer-level-1-above-8-kib-only-for-a.md).
   */
  compression?: CompressionOptions | false;
}

/**
 * A running emulator.
 *
 * @example
 * ```ts
 * const emulator: Emulator = await createEmulator();
 * const url = await emulator.listen(0);
 * await emulator.snapshot('clean');
 * // … run clients against url; between tests:
 * await emulator.restore('clean');
 * await emulator.close();
 * ```
 */
export interface Emulator {
  /** The WHATWG handler: embed it in any server or call it directly in tests. */
  fetch(request: Request): Promise<Response>;
  /** The Hono app, to mount in another Hono app. */
  readonly app: Hono<EmulatorEnv>;
  /** Starts listening (port 0 picks a free one; host defaults to 127.0.0.1); resolves the URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** The URL it listens on, once {@link listen} resolved. */
  readonly url: string | undefined;
  /** Wipes every store, fault and log, restores the configured operation policy, and replays the seed. */
  reset(): Promise<void>;
  /**
   * Captures the whole state now (rules of both scopes, operations, orders, the clock, the
   * operation policy and fault rules) as a named snapshot, replacing one of that name; what the
   * control plane's `POST /_listkit/snapshots` does.
   */
  snapshot(name?: string): Promise<SnapshotInfo>;
  /** Returns to a snapshot at once (`POST /_listkit/snapshots/{name}:restore`). */
  restore(name?: string): Promise<SnapshotInfo>;
  /** The snapshots kept: list, delete, export as a file's text, import one. */
  readonly snapshots: EmulatorSnapshots;
  /** Stops listening and closes the store (its connections, the data directory's lock). */
  close(): Promise<void>;
  readonly clock: EmulatorClock;
  /** Settings, injected faults, the request log and read-only views of the stores. */
  readonly state: EmulatorControls;
}

/** Where {@link createEmulator} keeps its state, from its options. */
function storeLocation(options: EmulatorOptions): StoreLocation {
  if (options.dataDir !== undefined && options.database !== undefined) {
    throw new Error('createEmulator: give dataDir or database, not both');
  }
  if (options.dataDir !== undefined) return { kind: 'pglite', dataDir: options.dataDir };
  if (options.database !== undefined) return { kind: 'postgres', url: options.database };
  return { kind: 'memory' };
}

/**
 * Creates an emulator of Compute Engine forwarding rules, regional and global (and their
 * operations), and of Android Publisher order refunds, that real Google clients can talk to. It
 * keeps its state in memory, or in PGlite (`dataDir`) or PostgreSQL (`database`), where it
 * outlives the process.
 *
 * @example
 * ```ts
 * const emulator = await createEmulator({ seed: { forwardingRules: [] } });
 * const url = await emulator.listen(0); // http://127.0.0.1:PORT
 * // point @google-cloud/compute at it: { apiEndpoint: '127.0.0.1', port, protocol: 'http' }
 * const res = await emulator.fetch(new Request(`${url}/compute/v1/projects/p/regions/r/forwardingRules`, {
 *   headers: { authorization: 'Bearer any' },
 * }));
 * await emulator.close();
 * ```
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { state, configured } = await openEmulatorState(options);
  const { store } = state;
  const reset = async () => {
    // Settings changed through the control plane go back to the configured ones; the clock is
    // left alone (tests move it on purpose; POST /_listkit/clock sets it).
    state.operationPolicy = configured.operationPolicy;
    state.faults.clear();
    state.requests.clear();
    await store.reset();
    if (options.seed) await seedState(state, options.seed);
  };
  let server: EmulatorServer | undefined;
  const snapshots = new EmulatorSnapshots(state, {
    ...DEFAULT_SNAPSHOT_LIMITS,
    ...options.snapshotLimits,
  });
  const app = createEmulatorApp(state, {
    reset,
    snapshots,
    servedPort: () => server?.port,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.compression !== undefined ? { compression: options.compression } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  server = new EmulatorServer(app);
  try {
    // A store that outlives the process keeps what it holds; the seed fills a new one only.
    if (store.kind === 'memory') await reset();
    else {
      await loadSettings(state);
      if (options.seed && (await isEmpty(store))) await seedState(state, options.seed);
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  const served = server;
  return {
    fetch: async (request) => app.fetch(request),
    app,
    state,
    clock: state.clock,
    get url() {
      return served.url;
    },
    reset,
    snapshot: (name = 'default') => snapshots.take(name),
    restore: (name = 'default') => snapshots.restore(name),
    snapshots,
    listen: (port = 0, host = '127.0.0.1') => served.listen(port, host),
    async close() {
      await served.close();
      await store.close();
    },
  };
}

/**
 * The state every route shares, from the options: the clock, page tokens, auth, the store
 * opened where the options say, and the domain services over it.
 */
async function openEmulatorState(
  options: EmulatorOptions,
): Promise<{ state: EmulatorState; configured: { operationPolicy: OperationPolicy } }> {
  const clock = options.clock ?? new EmulatorClock();
  const urls = new ComputeUrls(options.baseUrl ?? DEFAULT_COMPUTE_BASE_URL);
  const pageTokens = await PageTokenCodec.create({
    secrets: options.pageTokenSecrets,
    now: () => clock.now(),
  });
  const configured = {
    auth: configuredAuth(options),
    operationPolicy: options.operationPolicy ?? ({ mode: 'immediate' } as OperationPolicy),
  };
  const store: EmulatorStore = await openStore(storeLocation(options), { pageTokens });
  const operations = new Operations({
    store: store.operations,
    clock,
    urls,
    policy: () => state.operationPolicy,
    retentionMs: options.operationRetentionMs ?? 60 * 60 * 1000,
    retentionCount: options.operationRetentionCount ?? 10_000,
    maxRunningMs: options.operationMaxRunningMs ?? 10 * 60 * 1000,
    waitTimeoutMs: options.waitTimeoutMs ?? 2000,
  });
  const state: EmulatorState = {
    store,
    clock,
    urls,
    pageTokens,
    forwardingRules: new ForwardingRules({
      store: store.rules,
      operations,
      clock,
      urls,
      scopeWrites: pscServiceAttachmentWrites,
    }),
    // The same store and domain; the global scope's own create rules for targets.
    globalForwardingRules: new ForwardingRules({
      store: store.rules,
      operations,
      clock,
      urls,
      destination: checkGlobalTargetAndBackend,
      scopeWrites: pscGoogleApisWrites,
    }),
    operations,
    orders: new Orders(store.orders, clock),
    faults: new Faults(),
    requests: new RequestLog(options.requestLogSize),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...configured,
    authenticate: (request) => authenticate(request, state.auth),
  };
  return { state, configured };
}

/** The auth configuration; a malformed token grant would answer 500 to every request that uses it, so it is refused now. */
function configuredAuth(options: EmulatorOptions): AuthConfig {
  return options.auth?.mode === 'strict'
    ? parseAuthConfig(
        { tokens: options.auth.tokens, controlToken: options.auth.controlToken },
        'createEmulator({ auth })',
      )
    : (options.auth ?? { mode: 'open' });
}

/** Whether a store holds no rule and no order (a new database, seeded at first start). */
async function isEmpty(store: EmulatorStore): Promise<boolean> {
  return (await store.rules.all()).length === 0 && (await store.orders.all()).length === 0;
}
