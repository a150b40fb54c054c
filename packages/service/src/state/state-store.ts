/**
 * The emulator's own state: settings (clock offset, operation policy, faults) and the request log.
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
  /** Appends to the request log, keeping the newest `capacity` entries. */
  appendRequest(entry: Readonly<Record<string, unknown>>, capacity: number): Promise<void>;
  /** The request log, oldest first. */
  requests(): Promise<Record<string, unknown>[]>;
}
