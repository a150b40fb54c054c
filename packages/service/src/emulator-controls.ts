import type { AuthConfig } from './auth/auth.js';
import type { ForwardingRuleJson } from './forwarding-rules/forwarding-rule.js';
import type { FaultRule } from './http/faults.js';
import type { RequestRecord } from './http/request-log.js';
import type { OperationPolicy } from './operations/operation-policy.js';
import type { OperationJson } from './operations/operations.js';

/**
 * What embedding code and tests may read and change on a running emulator, in process: the same
 * powers as the control plane (`/_listkit`), without HTTP. The stores behind it are not part of
 * the API; read resources through these views or through the emulator's HTTP routes.
 *
 * @example
 * ```ts
 * const emulator = await createEmulator();
 * emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
 * emulator.state.faults.add({ method: 'compute.forwardingRules.list', status: 503, count: 1 });
 * emulator.state.requests.list().at(-1)?.status; // 503 after the next list
 * (await emulator.state.forwardingRules.all()).length; // every rule, in every project and region
 * ```
 */
export interface EmulatorControls {
  /** How operations started by writes complete; applies to operations started from now on. */
  operationPolicy: OperationPolicy;
  /** How requests are authenticated (open or strict mode, tokens, control token). */
  auth: AuthConfig;
  /** Injected failures: the next matching calls answer the given status. */
  readonly faults: {
    add(rule: FaultRule): void;
    list(): FaultRule[];
    clear(): void;
  };
  /** The recent requests, oldest first (bounded). */
  readonly requests: { list(): RequestRecord[] };
  /**
   * Every forwarding rule with its project and region (none for a global rule), as stored: read
   * them, do not change them.
   */
  readonly forwardingRules: {
    all(): Promise<{ project: string; region?: string; rule: ForwardingRuleJson }[]>;
  };
  /** Every operation kept, as its wire answer. */
  readonly operations: { all(): Promise<OperationJson[]> };
}
