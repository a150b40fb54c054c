import type { EmulatorState } from '../emulator-state.js';
import type { FaultRule } from '../http/faults.js';
import type { OperationPolicy } from '../operations/operation-policy.js';

/** The emulator's settings as the store keeps them (`emulator_settings`, key `settings`). */
interface StoredSettings {
  operationPolicy: OperationPolicy;
  /** How far the emulator's clock is from real time, in ms (it keeps running after a restart). */
  clockOffsetMs: number;
  faults: FaultRule[];
}

const KEY = 'settings';

/**
 * Keeps the settings the control plane changed (operation policy, clock offset, fault rules) in
 * the store, so that an emulator restarted on the same data directory or database starts with
 * them. Each process still reads its own copy: a change on one process reaches another at its
 * next start.
 *
 * @example
 * ```ts
 * state.operationPolicy = { mode: 'polls', polls: 3 };
 * await saveSettings(state);
 * ```
 */
export async function saveSettings(state: EmulatorState): Promise<void> {
  const settings: StoredSettings = {
    operationPolicy: state.operationPolicy,
    clockOffsetMs: state.clock.now() - Date.now(),
    faults: state.faults.list(),
  };
  await state.store.state.set(KEY, settings);
}

/**
 * Applies the settings a store kept ({@link saveSettings}); a store without any leaves the
 * configured ones.
 *
 * @example
 * ```ts
 * await loadSettings(state); // after opening a data directory an earlier process used
 * ```
 */
export async function loadSettings(state: EmulatorState): Promise<void> {
  const settings = await state.store.state.get<StoredSettings>(KEY);
  if (!settings) return;
  state.operationPolicy = settings.operationPolicy;
  state.clock.set(Date.now() + settings.clockOffsetMs);
  state.faults.clear();
  for (const rule of settings.faults) state.faults.add(rule);
}
