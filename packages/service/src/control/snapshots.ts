import { ListkitError } from '@listkit/query';
import { refuse } from '../core/refusal.js';
import type { EmulatorState } from '../emulator-state.js';
import type { SnapshotInfo, SnapshotLimits } from '../store/snapshot-shelf.js';
import { saveSettings } from './settings.js';
import { parseSnapshotFile, SNAPSHOT_NAME, type SnapshotFile } from './snapshot-file.js';

/**
 * The default {@link SnapshotLimits}: 64 snapshots of 256 MiB together (a snapshot of 10^5
 * rules is about 60 MB of text).
 *
 * @example
 * ```ts
 * await createEmulator({ snapshotLimits: { ...DEFAULT_SNAPSHOT_LIMITS, count: 8 } });
 * ```
 */
export const DEFAULT_SNAPSHOT_LIMITS: SnapshotLimits = { count: 64, bytes: 256 * 1024 * 1024 };

const named = (name: string): string => {
  if (!SNAPSHOT_NAME.test(name)) {
    throw refuse.badRequest(
      `snapshot name: '${name.slice(0, 64)}' is not 1-63 letters, digits, '-', '_' or '.' starting with a letter or digit`,
    );
  }
  return name;
};

/**
 * The emulator's named snapshots: the whole state (rules of both scopes, operations, orders,
 * settings, the clock, the operation policy and fault rules) captured at one instant and put back
 * at once. The texts are kept by the store (memory, or the database every process shares);
 * parsed ones are kept here too, by name and time taken, so a restore parses a snapshot once.
 *
 * @example
 * ```ts
 * await snapshots.take('seeded');
 * // … a test changes things …
 * await snapshots.restore('seeded');
 * ```
 */
export class EmulatorSnapshots {
  private readonly parsed = new Map<string, SnapshotFile>();

  constructor(
    private readonly state: EmulatorState,
    private readonly limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
  ) {}

  /** Captures the state now under `name` (replacing a snapshot of that name). */
  async take(name: string): Promise<SnapshotInfo> {
    const file = await this.capture(named(name));
    const text = JSON.stringify(file);
    const info = { name, takenAt: file.takenAt, bytes: Buffer.byteLength(text) };
    deepFreeze(file);
    await this.state.store.snapshots.put(info, text, file.store, this.limits);
    this.parsed.set(name, file);
    return info;
  }

  /**
   * Returns to a snapshot: every part of the state as it was then, in one step. The store puts
   * back the state its shelf made ready; should another process replace the snapshot meanwhile,
   * the newer one is read and restored.
   */
  async restore(name: string): Promise<SnapshotInfo> {
    for (let attempt = 0; ; attempt++) {
      const { info, file } = await this.read(named(name));
      if (await this.state.store.restore(name, info.takenAt)) {
        await this.applyEmulator(file);
        return info;
      }
      if (attempt > 0) throw notFound(name);
    }
  }

  /** Every snapshot kept, by name. */
  list(): Promise<SnapshotInfo[]> {
    return this.state.store.snapshots.list();
  }

  /** Forgets a snapshot (`not_found` when there is none of that name). */
  async delete(name: string): Promise<void> {
    this.parsed.delete(name);
    if (!(await this.state.store.snapshots.delete(named(name)))) throw notFound(name);
  }

  /** A kept snapshot's file text, as `--from-snapshot` reads it. */
  async export(name: string): Promise<string> {
    const kept = await this.state.store.snapshots.get(named(name));
    if (!kept) throw notFound(name);
    return kept.text;
  }

  /** The file text of the state now, kept nowhere (`--save-on-exit`). */
  async current(name: string): Promise<string> {
    return JSON.stringify(await this.capture(named(name)));
  }

  /**
   * Keeps a snapshot file's text under its name and returns to it (`--from-snapshot`); a text
   * that is no snapshot file is refused, saying what is wrong, and changes nothing.
   */
  async import(text: string): Promise<SnapshotInfo> {
    const file = parseSnapshotFile(text);
    if (typeof file === 'string') throw refuse.badRequest(`snapshot file: ${file}`);
    const info = { name: file.name, takenAt: file.takenAt, bytes: Buffer.byteLength(text) };
    deepFreeze(file);
    try {
      await this.state.store.snapshots.put(info, text, file.store, this.limits);
    } catch (error) {
      throw unfit(error, file.name);
    }
    this.parsed.set(file.name, file);
    return this.restore(file.name);
  }

  private async capture(name: string): Promise<SnapshotFile> {
    const { clock, store } = this.state;
    const epochMs = clock.now();
    return {
      listkit: 'snapshot',
      version: 1,
      name,
      takenAt: new Date(epochMs).toISOString(),
      emulator: {
        clock: { epochMs, frozen: clock.frozen },
        operationPolicy: this.state.operationPolicy,
        faults: this.state.faults.list(),
      },
      store: await store.capture(),
    };
  }

  /** The snapshot, parsed once per time it was taken (another process may take it anew). */
  private async read(name: string): Promise<{ info: SnapshotInfo; file: SnapshotFile }> {
    const { snapshots } = this.state.store;
    const cached = this.parsed.get(name);
    const info = await snapshots.info(name);
    if (!info) throw notFound(name);
    if (cached?.takenAt === info.takenAt) return { info, file: cached };
    const kept = await snapshots.get(name);
    if (!kept) throw notFound(name);
    const file = parseSnapshotFile(kept.text);
    if (typeof file === 'string') throw refuse.badRequest(`snapshot '${name}': ${file}`);
    this.parsed.set(name, deepFreeze(file));
    return { info: kept.info, file };
  }

  /** Puts back what the emulator itself keeps of a snapshot: its clock, policy and faults. */
  private async applyEmulator(file: SnapshotFile): Promise<void> {
    const { state } = this;
    const { clock, operationPolicy, faults } = file.emulator;
    state.clock.freeze(false);
    state.clock.set(clock.epochMs);
    state.clock.freeze(clock.frozen);
    state.operationPolicy = operationPolicy;
    state.faults.clear();
    for (const rule of faults) state.faults.add(rule);
    await saveSettings(state);
  }
}

/** Freezes a parsed snapshot all the way down: a memory restore shares its rules (`load`). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A store's refusal to keep a snapshot file's state, as a 400 naming the snapshot: a value the
 * schema refuses (memory: the check of the rule collections) or one the tables cannot hold
 * (SQL: a data exception or broken constraint, SQLSTATE classes 22 and 23). Anything else (a
 * quota refusal, a lost connection) is passed on as it is.
 */
function unfit(error: unknown, name: string): unknown {
  const sqlState = (error as { code?: unknown } | null)?.code;
  const refused =
    error instanceof ListkitError ||
    (typeof sqlState === 'string' && /^2[23]/.test(sqlState) && error instanceof Error);
  if (!refused) return error;
  return refuse.badRequest(
    `snapshot file '${name}': the store cannot hold its state: ${(error as Error).message}`,
  );
}

const notFound = (name: string) => refuse.notFound(`The snapshot '${name}' was not found`);
