import type { EmulatorStateStore } from './state-store.js';

const copy = <T>(value: T): T => structuredClone(value);

/**
 * The emulator's settings and request log in this process's memory.
 *
 * @example
 * ```ts
 * const state = memoryStateStore();
 * await state.set('clockOffsetMs', 60_000);
 * ```
 */
export function memoryStateStore(): EmulatorStateStore & { clear(): void } {
  const settings = new Map<string, string>();
  let requestLog: Record<string, unknown>[] = [];
  return {
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
    clear: () => {
      settings.clear();
      requestLog = [];
    },
  };
}
