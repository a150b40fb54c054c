import type { EmulatorStateStore } from './state-store.js';

/**
 * The emulator's settings in this process's memory.
 *
 * @example
 * ```ts
 * const state = memoryStateStore();
 * await state.set('clockOffsetMs', 60_000);
 * ```
 */
export function memoryStateStore(): EmulatorStateStore & { clear(): void } {
  const settings = new Map<string, string>();
  return {
    get: async <T>(key: string) => {
      const text = settings.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    set: async (key, value) => {
      settings.set(key, JSON.stringify(value));
    },
    clear: () => settings.clear(),
  };
}
