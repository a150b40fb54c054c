import { ApiError } from './api-error.js';

/**
 * An injected failure: requests to `method` answer `status` with `reason` and `message`.
 *
 * @example
 * ```ts
 * const rule: FaultRule = { method: 'compute.forwardingRules.insert', status: 503, reason: 'backendError', count: 1 };
 * emulator.state.faults.add(rule); // the next insert answers 503, then inserts work again
 * ```
 */
export interface FaultRule {
  /** The API method, such as `compute.forwardingRules.insert`, or `*` for every one. */
  method: string;
  status: number;
  reason?: string;
  message?: string;
  /** Fail this many matching requests, then stop. Default: every one. */
  count?: number;
  /** Fail each matching request with this probability (0..1). Default 1. */
  probability?: number;
}

/** Checks a fault rule given as JSON; returns the problem as text when it is not one. */
export function parseFaultRule(value: unknown): FaultRule | string {
  if (typeof value !== 'object' || value === null) return 'a fault is an object';
  const { method, status, reason, message, count, probability } = value as Record<string, unknown>;
  if (typeof method !== 'string' || method === '') return 'method is required (or "*")';
  if (!Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) {
    return 'status must be an HTTP error status (400-599)';
  }
  if (reason !== undefined && typeof reason !== 'string') return 'reason must be a string';
  if (message !== undefined && typeof message !== 'string') return 'message must be a string';
  if (count !== undefined && (!Number.isSafeInteger(count) || (count as number) < 1))
    return 'count must be an integer ≥ 1';
  if (
    probability !== undefined &&
    (typeof probability !== 'number' || probability < 0 || probability > 1)
  ) {
    return 'probability must be between 0 and 1';
  }
  return value as FaultRule;
}

/** The fault rules in force, consumed as they fire. */
export class Faults {
  private rules: FaultRule[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  add(rule: FaultRule): void {
    this.rules.push({ ...rule });
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** Throws the injected error when a rule fires for this API method. */
  check(method: string): void {
    const index = this.rules.findIndex(
      (r) => (r.method === method || r.method === '*') && this.random() < (r.probability ?? 1),
    );
    if (index < 0) return;
    const rule = this.rules[index]!;
    if (rule.count !== undefined && --rule.count <= 0) this.rules.splice(index, 1);
    throw new ApiError(
      rule.status,
      rule.reason ?? 'backendError',
      rule.message ?? `Injected fault for ${method}.`,
    );
  }
}
