/**
 * The emulator's own state: its settings (clock offset, operation policy, faults). The request
 * log is not here: each process keeps its own in memory (`http/request-log.ts`).
 *
 * @example
 * ```ts
 * await store.state.set('clockOffsetMs', 60_000);
 * const offset = await store.state.get<number>('clockOffsetMs'); // 60000
 * ```
 */
export interface EmulatorStateStore {
  /** A setting as JSON, or undefined. */
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
}
