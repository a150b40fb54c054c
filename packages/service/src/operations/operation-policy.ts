/**
 * When an operation completes:
 * - `immediate`: the first time it is read back (get or wait) it is DONE;
 * - `polls`: after `polls` reads (get or wait), each showing more progress;
 * - `duration`: once `ms` milliseconds have passed on the emulator's clock (tests advance it).
 * Insert answers RUNNING with progress 0, as Compute Engine does, except with `duration` 0,
 * which completes operations in their first answer (as setLabels always does).
 *
 * @example
 * ```ts
 * await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } }); // DONE at the second poll
 * ```
 */
export type OperationPolicy =
  | { mode: 'immediate' }
  | { mode: 'polls'; polls: number }
  | { mode: 'duration'; ms: number };

/** Checks a policy given as JSON (control plane, configuration). */
export function parseOperationPolicy(value: unknown): OperationPolicy | string {
  if (typeof value !== 'object' || value === null) return 'a policy is an object with a mode';
  const { mode, polls, ms } = value as Record<string, unknown>;
  if (mode === 'immediate') return { mode };
  if (mode === 'polls') {
    return Number.isSafeInteger(polls) && (polls as number) >= 1
      ? { mode, polls: polls as number }
      : "mode 'polls' needs polls, an integer ≥ 1";
  }
  if (mode === 'duration') {
    return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0
      ? { mode, ms }
      : "mode 'duration' needs ms, a number ≥ 0";
  }
  return "mode is 'immediate', 'polls' or 'duration'";
}
