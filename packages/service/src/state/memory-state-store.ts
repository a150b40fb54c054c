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
  /** These settings as the store keeps them (JSON texts by key), apart from the store. */
  prepare(entries: Readonly<Record<string, unknown>>): ReadonlyMap<string, string>;
  /** Replaces every setting by these (a restore), synchronously; the map given stays as it was. */
  adopt(prepared: ReadonlyMap<string, string>): void;
} {
  let settings = new Map<string, string>();
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
    prepare: (entries) =>
      new Map(Object.entries(entries).map(([key, value]) => [key, JSON.stringify(value)])),
    adopt: (prepared) => {
      settings = new Map(prepared);
    },
    clear: () => settings.clear(),
  };
}
