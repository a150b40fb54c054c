import type { PageTokenCodec } from '@listkit/query';
import type { AuthConfig, Principal } from './auth/auth.js';
import type { EmulatorClock } from './core/clock.js';
import type { ForwardingRules } from './forwarding-rules/forwarding-rules.js';
import type { Faults } from './http/faults.js';
import type { RequestLog } from './http/request-log.js';
import type { ComputeUrls } from './names/compute-urls.js';
import type { OperationPolicy } from './operations/operation-policy.js';
import type { Operations } from './operations/operations.js';
import type { Orders } from './orders/orders.js';
import type { EmulatorStore } from './store/store.js';

/**
 * The Hono environment of the emulator's app ({@link Emulator.app}): the variables set while a
 * request is handled, which the request log reads. Mount the app with it, or read the API
 * method of a request in middleware of your own.
 *
 * @example
 * ```ts
 * const outer = new Hono<EmulatorEnv>();
 * outer.use('*', async (c, next) => {
 *   await next();
 *   console.log(c.get('apiMethod')); // 'compute.forwardingRules.list', …
 * });
 * outer.route('/', emulator.app);
 * ```
 */
export type EmulatorEnv = {
  Variables: {
    apiMethod?: string;
    principal?: string;
    /** The request URL once parsed (`requestUrl`): parsed at most once per call. */
    url?: URL;
  };
};

/** Everything the routes share: the stores, the clock, and the emulator's settings. */
export interface EmulatorState {
  /** Where rules, operations and orders are kept (memory, PGlite or PostgreSQL). */
  readonly store: EmulatorStore;
  readonly clock: EmulatorClock;
  readonly urls: ComputeUrls;
  readonly pageTokens: PageTokenCodec;
  /** Regional forwarding rules. */
  readonly forwardingRules: ForwardingRules;
  /** Global forwarding rules: the same store, under each project's global scope. */
  readonly globalForwardingRules: ForwardingRules;
  readonly operations: Operations;
  readonly orders: Orders;
  readonly faults: Faults;
  readonly requests: RequestLog;
  readonly bodyLimit: number;
  auth: AuthConfig;
  operationPolicy: OperationPolicy;
  authenticate(request: Request): Principal;
}
