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
export function memoryStateStore(): EmulatorStateStore & {
  clear(): void;
  /** Every setting by key, at this instant (synchronously: a snapshot's read). */
  entries(): Record<string, unknown>;
  /** Replaces every setting by these, synchronously (a restore). */
  load(entries: Readonly<Record<string, unknown>>): void;
} {
  const settings = new Map<string, string>();
  return {
    get: async <T>(key: string) => {
      const text = settings.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    set: async (key, value) => {
      settings.set(key, JSON.stringify(value));
    },
    entries: () =>
      Object.fromEntries([...settings].map(([key, text]) => [key, JSON.parse(text) as unknown])),
    load: (entries) => {
      settings.clear();
      for (const [key, value] of Object.entries(entries)) settings.set(key, JSON.stringify(value));
    },
    clear: () => settings.clear(),
  };
}
