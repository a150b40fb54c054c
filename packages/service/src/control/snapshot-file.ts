// The snapshot file: what `GET /_listkit/snapshots/{name}` exports, `--save-on-exit` writes and
// `--from-snapshot` reads. One format for every store.
import { checkResource } from '@listkit/query';
import { isClockTime } from '../core/clock.js';
import { forwardingRuleSchema } from '../forwarding-rules/forwarding-rule-schema.js';
import { type FaultRule, parseFaultRule } from '../http/faults.js';
import type { OperationPolicy } from '../operations/operation-policy.js';
import { parseOperationPolicy } from '../operations/operation-policy.js';
import type { StoreImage } from '../store/store-image.js';

/**
 * A snapshot as a file: the store's image and the emulator's own state at that instant (its
 * clock, operation policy and fault rules).
 *
 * @example
 * ```ts
 * const file: SnapshotFile = JSON.parse(await readFile('clean.json', 'utf8'));
 * ```
 */
export interface SnapshotFile {
  listkit: 'snapshot';
  version: 1;
  name: string;
  /** On the emulator's clock (RFC 3339). */
  takenAt: string;
  emulator: {
    clock: { epochMs: number; frozen: boolean };
    operationPolicy: OperationPolicy;
    faults: FaultRule[];
  };
  store: StoreImage;
}

/** Snapshot names: a letter or digit, then letters, digits, `-`, `_`, `.`; 1-63 characters. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][-A-Za-z0-9_.]{0,62}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first entry of an array that is not an object with these string fields, as a message. */
function badEntry(list: unknown, where: string, strings: readonly string[]): string | undefined {
  if (!Array.isArray(list)) return `${where} is not an array`;
  const at = list.findIndex(
    (entry) => !isObject(entry) || strings.some((field) => typeof entry[field] !== 'string'),
  );
  return at < 0 ? undefined : `${where}[${at}] needs ${strings.join(', ')} as text`;
}

/**
 * What is wrong with a rule of the file, or undefined: each is checked against the rule schema
 * here, once, so every store refuses the same file with the same words (and a restore need not
 * check again).
 */
function ruleEntryProblem(entry: Record<string, unknown>, at: number): string | undefined {
  if (!isObject(entry.rule) || typeof entry.rule.name !== 'string') {
    return `store.rules[${at}].rule needs a name`;
  }
  try {
    checkResource(forwardingRuleSchema, entry.rule);
    return undefined;
  } catch (error) {
    return `store.rules[${at}].rule: ${(error as Error).message}`;
  }
}

/** What is wrong with the store part of a file, or undefined. */
function storeProblem(store: unknown): string | undefined {
  if (!isObject(store)) return 'store is not an object';
  const rules = store.rules;
  const ruleProblem =
    badEntry(rules, 'store.rules', ['project']) ??
    (rules as Record<string, unknown>[]).map(ruleEntryProblem).find(Boolean);
  const operations = store.operations;
  const operationProblem =
    badEntry(operations, 'store.operations', ['project']) ??
    (operations as Record<string, unknown>[])
      .map((entry, i) =>
        isObject(entry.operation) && typeof entry.version === 'number' && isObject(entry.meta)
          ? undefined
          : `store.operations[${i}] needs operation, meta and version`,
      )
      .find(Boolean);
  return (
    ruleProblem ??
    operationProblem ??
    badEntry(store.orders, 'store.orders', ['packageName', 'orderId']) ??
    (isObject(store.settings) ? undefined : 'store.settings is not an object')
  );
}

/** What is wrong with the emulator part of a file, or undefined. */
function emulatorProblem(emulator: unknown): string | undefined {
  if (!isObject(emulator) || !isObject(emulator.clock)) return 'emulator.clock is missing';
  const { epochMs, frozen } = emulator.clock;
  if (typeof epochMs !== 'number' || !isClockTime(epochMs))
    return 'emulator.clock.epochMs is not a time the clock can show';
  if (typeof frozen !== 'boolean') return 'emulator.clock.frozen is not true or false';
  const policy = parseOperationPolicy(emulator.operationPolicy);
  if (typeof policy === 'string') return `emulator.operationPolicy: ${policy}`;
  if (!Array.isArray(emulator.faults)) return 'emulator.faults is not an array';
  const fault = emulator.faults.map(parseFaultRule).findIndex((rule) => typeof rule === 'string');
  return fault < 0 ? undefined : `emulator.faults[${fault}] is not a fault rule`;
}

/**
 * Reads a snapshot file's text; a message saying what is wrong and where when it is not one.
 *
 * @example
 * ```ts
 * const file = parseSnapshotFile(text);
 * if (typeof file === 'string') throw new Error(file);
 * ```
 */
export function parseSnapshotFile(text: string): SnapshotFile | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (!isObject(value) || value.listkit !== 'snapshot')
    return 'not a listkit snapshot (no "listkit": "snapshot")';
  if (value.version !== 1) return `version ${JSON.stringify(value.version)} is not 1`;
  if (typeof value.name !== 'string' || !SNAPSHOT_NAME.test(value.name))
    return 'name is not a snapshot name';
  if (typeof value.takenAt !== 'string') return 'takenAt is missing';
  const problem = emulatorProblem(value.emulator) ?? storeProblem(value.store);
  return problem ?? (value as unknown as SnapshotFile);
}
