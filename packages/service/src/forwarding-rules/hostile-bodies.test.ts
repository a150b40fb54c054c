import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CallResult, caller } from '../../../../test/support/http-call.js';
import { createEmulator, type Emulator } from '../emulator.js';

// Bodies a hostile or buggy client sends: values nested 10,000 deep, values of the wrong type,
// strings of a megabyte. Each must be a short 400 naming the field, never a 500 or a huge answer.

type Json = Record<string, unknown>;
const RULES = 'http://x/compute/v1/projects/p/regions/us-central1/forwardingRules';
const TARGET = 'projects/p/regions/us-central1/targetPools/pool';
/** A JSON array nested 10,000 deep, as text (building it as a value and serialising it would overflow). */
const DEEP = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator();
});
beforeEach(() => emulator.reset());

/** Sends a body text exactly as given, labelled application/json. */
const send = caller<Json>(() => emulator, { token: 't' });
const insertText = (text: string) => send('POST', RULES, text);
const patchText = (text: string) => send('PATCH', `${RULES}/fr`, text);
const create = async () => {
  const res = await insertText(JSON.stringify({ name: 'fr', target: TARGET, portRange: '80' }));
  expect(res.status).toBe(200);
};
const errorOf = (json: Json) => json.error as { message: string; errors: Json[] };

function expectShort400(res: CallResult<Json>, field: string) {
  expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(400);
  const error = errorOf(res.json);
  expect(error.message).toContain(`resource.${field}`);
  expect(error.message).not.toContain('Maximum call stack');
  expect(res.text.length).toBeLessThan(1000);
}

describe('values nested 10,000 deep', () => {
  it.each(['labels', 'metadataFilters', 'description', 'sourceIpRanges', 'ports', 'target'])(
    'insert: a deep array in %s is a short 400',
    async (field) => {
      const res = await insertText(`{"name":"fr","${field}":${DEEP}}`);
      expectShort400(res, field);
    },
  );

  it.each(['sourceIpRanges', 'target', 'description', 'labels', 'metadataFilters'])(
    'patch: a deep array in %s is a short 400 and changes nothing',
    async (field) => {
      await create();
      const before = await send('GET', `${RULES}/fr`);
      const res = await patchText(`{"${field}":${DEEP}}`);
      expectShort400(res, field);
      expect((await send('GET', `${RULES}/fr`)).json).toEqual(before.json);
    },
  );

  it('a deep array inside a list item names the item', async () => {
    const res = await insertText(`{"name":"fr","metadataFilters":[{"filterLabels":${DEEP}}]}`);
    expectShort400(res, 'metadataFilters[0].filterLabels');
  });
});

describe('labels of the wrong type in a patch', () => {
  it.each([
    ['a number', '123'],
    ['a list', '["a"]'],
    ['a map with a number', '{"a":1}'],
  ])('%s is 400 as on insert, and nothing changes', async (_what, labels) => {
    await create();
    const onInsert = await insertText(`{"name":"other","target":"${TARGET}","labels":${labels}}`);
    expect(onInsert.status).toBe(400);
    const before = await send('GET', `${RULES}/fr`);
    const res = await patchText(`{"labels":${labels}}`);
    expect(res.status).toBe(400);
    expect(errorOf(res.json).errors[0]!.location).toBe(errorOf(onInsert.json).errors[0]!.location);
    expect((await send('GET', `${RULES}/fr`)).json).toEqual(before.json);
  });

  it('labels that break the label rules are 400 in a patch as on insert', async () => {
    await create();
    const res = await patchText('{"labels":{"Env":"x"}}');
    expect(res.status).toBe(400);
    expect(errorOf(res.json).errors[0]!.location).toBe('resource.labels');
  });
});

describe('free text has a bounded length', () => {
  const MB = 'a'.repeat(1_000_000);

  it('description: 2048 characters are accepted, 2049 refused naming the field', async () => {
    const ok = await insertText(
      JSON.stringify({ name: 'fr', target: TARGET, description: 'd'.repeat(2048) }),
    );
    expect(ok.status).toBe(200);
    const res = await insertText(
      JSON.stringify({ name: 'fr2', target: TARGET, description: 'd'.repeat(2049) }),
    );
    expectShort400(res, 'description');
    expect(errorOf(res.json).message).toContain('at most 2048 characters');
  });

  it('characters are counted, not bytes', async () => {
    const res = await insertText(
      JSON.stringify({ name: 'fr', target: TARGET, description: 'é'.repeat(2048) }),
    );
    expect(res.status).toBe(200);
  });

  it.each([
    'description',
    'target',
    'network',
    'subnetwork',
    'backendService',
    'ipCollection',
    'IPAddress',
    'serviceLabel',
    'region',
    'portRange',
    'selfLink',
    'fingerprint',
  ])('insert: a megabyte of %s is a short 400', async (field) => {
    const res = await insertText(JSON.stringify({ name: 'fr', [field]: MB }));
    expectShort400(res, field);
  });

  it.each([
    ['sourceIpRanges', { sourceIpRanges: [MB] }, 'sourceIpRanges[0]'],
    ['ports', { ports: [MB] }, 'ports[0]'],
    [
      'serviceDirectoryRegistrations',
      { serviceDirectoryRegistrations: [{ serviceDirectoryRegion: MB }] },
      'serviceDirectoryRegistrations[0].serviceDirectoryRegion',
    ],
  ])('insert: a megabyte inside %s is a short 400 naming the item', async (_f, extra, field) => {
    const res = await insertText(JSON.stringify({ name: 'fr', ...extra }));
    expectShort400(res, field);
  });

  it('insert: a label key of a megabyte is a short 400', async () => {
    const res = await insertText(
      JSON.stringify({ name: 'fr', target: TARGET, labels: { [MB]: 'v' } }),
    );
    expectShort400(res, 'labels');
  });

  it.each(['description', 'target', 'sourceIpRanges'])(
    'patch: a megabyte of %s is a short 400',
    async (field) => {
      await create();
      const value = field === 'sourceIpRanges' ? [MB] : MB;
      const res = await patchText(JSON.stringify({ [field]: value }));
      expect(res.status).toBe(400);
      expect(res.text.length).toBeLessThan(1000);
    },
  );
});

describe('setLabels bodies', () => {
  const setLabels = (text: string) => send('POST', `${RULES}/fr/setLabels`, text);
  const fingerprint = async () => String((await send('GET', `${RULES}/fr`)).json.labelFingerprint);

  it('a stale labelFingerprint of a megabyte is a short 412 (it was quoted whole: 2 MB)', async () => {
    await create();
    const res = await setLabels(JSON.stringify({ labels: {}, labelFingerprint: 'a'.repeat(1e6) }));
    expect(res.status).toBe(412);
    expect(res.text.length).toBeLessThan(1000);
  });

  it.each([
    ['labels', '123'],
    ['labels', DEEP],
    ['labelFingerprint', '123'],
    ['labelFingerprint', DEEP],
  ])(
    '%s of the wrong type (%#) is a short 400 naming it, before any fingerprint check',
    async (field, value) => {
      await create();
      const before = await fingerprint();
      const res = await setLabels(`{"${field}":${value}}`);
      expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(400);
      expect(errorOf(res.json).message).toContain(field);
      expect(res.text.length).toBeLessThan(1000);
      expect(await fingerprint()).toBe(before);
    },
  );
});
