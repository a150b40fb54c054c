import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/http-call.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { EMPTY_LABELS_FINGERPRINT } from './fingerprint.js';

// One label rule, one table, both paths: insert (labels validated, then ignored) and setLabels.

type Json = Record<string, unknown>;
const RULES = 'http://x/compute/v1/projects/p/regions/us-central1/forwardingRules';
const TARGET = 'projects/p/regions/us-central1/targetPools/pool';
const labelsOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));

const TABLE: [string, Record<string, string>, boolean][] = [
  ['plain labels', { env: 'prod', team: '' }, true],
  ['international characters', { é: 'ß' }, true],
  ['Cyrillic key and value', { ключ: 'значение' }, true],
  ['a key starting with an international character', { 日本: '値' }, true],
  ['digits, _ and - after the first character', { 'a_1-b': '0_-9' }, true],
  ['64 labels', labelsOf(64), true],
  ['65 labels', labelsOf(65), false],
  ['a key of 63 characters', { ['a'.repeat(63)]: 'v' }, true],
  ['a key of 64 characters', { ['a'.repeat(64)]: 'v' }, false],
  ['63 international characters in a key', { ['é'.repeat(63)]: 'v' }, true],
  ['a value of 63 characters', { k: 'a'.repeat(63) }, true],
  ['a value of 64 characters', { k: 'a'.repeat(64) }, false],
  ['an empty key', { '': 'v' }, false],
  ['a key with a capital', { Env: 'v' }, false],
  ['a key with a leading digit', { '1env': 'v' }, false],
  ['a key with a leading underscore', { _env: 'v' }, false],
  ['a value with a capital', { env: 'Prod' }, false],
  ['a value with a dot', { env: 'v1.2' }, false],
  ['a value with a space', { env: 'a b' }, false],
];

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator();
});
beforeEach(() => emulator.reset());

const call = caller<Json>(() => emulator, { token: 't' });

describe('the label rule, on insert and on setLabels', () => {
  it.each(TABLE)('%s', async (_what, labels, accepted) => {
    const insert = await call('POST', RULES, { name: 'fr', target: TARGET, labels });
    expect(insert.status, JSON.stringify(insert.json)).toBe(accepted ? 200 : 400);
    if (!accepted) {
      expect(await call('POST', RULES, { name: 'fr', target: TARGET })).toMatchObject({
        status: 200,
      });
    }
    const set = await call('POST', `${RULES}/fr/setLabels`, {
      labels,
      labelFingerprint: EMPTY_LABELS_FINGERPRINT,
    });
    expect(set.status, JSON.stringify(set.json)).toBe(accepted ? 200 : 400);
    if (!accepted) expect((set.json.error as { errors: Json[] }).errors[0]!.reason).toBe('invalid');
  });
});
