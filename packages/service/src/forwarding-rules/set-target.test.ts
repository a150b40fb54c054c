import { describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/http-call.js';
import type { TokenGrant } from '../auth/auth.js';
import { createEmulator, type EmulatorOptions } from '../emulator.js';

// forwardingRules.setTarget: POST …/forwardingRules/{name}/setTarget with a TargetReference.

type Json = Record<string, unknown>;
const RULES = 'http://x/compute/v1/projects/p/regions/us-central1/forwardingRules';
const POOL = (name: string) => `projects/p/regions/us-central1/targetPools/${name}`;
const FULL = 'https://www.googleapis.com/compute/v1/';
const REQUEST_ID = '123e4567-e89b-12d3-a456-426614174000';

async function setUp(options: EmulatorOptions = {}, token = 't') {
  const emulator = await createEmulator(options);
  return { emulator, call: caller<Json>(emulator, { token }) };
}

async function withRule(options: EmulatorOptions = {}, token = 't') {
  const open = await setUp(options, token);
  const created = await open.call('POST', RULES, {
    name: 'fr',
    target: POOL('a'),
    portRange: '80',
  });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const get = async () => (await open.call('GET', `${RULES}/fr`)).json;
  const setTarget = (body: unknown, query = '') =>
    open.call('POST', `${RULES}/fr/setTarget${query}`, body);
  return { ...open, get, setTarget };
}

describe('setTarget', () => {
  it('changes the target (answered as a full URL) and the fingerprint; operation SetTarget', async () => {
    const { get, setTarget } = await withRule();
    const before = await get();
    const res = await setTarget({ target: POOL('b') });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      kind: 'compute#operation',
      operationType: 'SetTarget',
      targetLink: before.selfLink,
      targetId: before.id,
    });
    const after = await get();
    expect(after.target).toBe(`${FULL}${POOL('b')}`);
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  it('a retry with the same requestId answers the first operation and changes nothing more', async () => {
    const { get, setTarget } = await withRule();
    const first = await setTarget({ target: POOL('b') }, `?requestId=${REQUEST_ID}`);
    expect(first.status).toBe(200);
    const changed = await get();
    const retry = await setTarget({ target: POOL('c') }, `?requestId=${REQUEST_ID}`);
    expect(retry.status).toBe(200);
    expect(retry.json.name).toBe(first.json.name);
    expect(await get()).toEqual(changed);
  });

  it.each([
    [
      'a target in another region',
      { target: 'projects/p/regions/europe-west1/targetPools/b' },
      400,
      'target',
    ],
    [
      'a target type the scheme cannot use',
      { target: 'regions/us-central1/targetHttpProxies/h' },
      400,
      'target',
    ],
    ['a target named T_T!', { target: POOL('T_T!') }, 400, 'The URL is malformed.'],
    ['a target named a b', { target: POOL('a b') }, 400, 'The URL is malformed.'],
    ['a target holding U+FFFF', { target: POOL('b\uffff') }, 400, 'The URL is malformed.'],
    ['no target', {}, 400, 'target'],
    ['a target that is not a string', { target: 5 }, 400, 'target'],
    ['an unknown field', { target: POOL('b'), extra: 1 }, 400, 'extra'],
    ['a body that is not an object', [1], 400, 'TargetReference'],
  ])('%s → %i naming it, and nothing changes', async (_what, body, status, says) => {
    const { get, setTarget } = await withRule();
    const before = await get();
    const res = await setTarget(body);
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect((res.json.error as { message: string }).message).toContain(says);
    expect(await get()).toEqual(before);
  });

  it('an invalid requestId is 400 naming it', async () => {
    const { setTarget } = await withRule();
    const res = await setTarget({ target: POOL('b') }, '?requestId=nope');
    expect(res.status).toBe(400);
    expect((res.json.error as { errors: Json[] }).errors[0]!.location).toBe('requestId');
  });

  it('a missing rule is 404', async () => {
    const { call } = await setUp();
    const res = await call('POST', `${RULES}/nothing/setTarget`, { target: POOL('b') });
    expect(res.status).toBe(404);
  });

  it('needs compute.forwardingRules.update (403 naming it)', async () => {
    const grant = (permissions: string[]): TokenGrant => ({
      identity: 'u@example.com',
      scopes: ['compute'],
      permissions: { p: permissions },
    });
    const auth = {
      mode: 'strict' as const,
      tokens: {
        creator: grant(['compute.forwardingRules.create', 'compute.forwardingRules.get']),
        updater: grant(['compute.forwardingRules.update']),
      },
    };
    const creator = await withRule({ auth }, 'creator');
    const denied = await creator.setTarget({ target: POOL('b') });
    expect(denied.status).toBe(403);
    expect((denied.json.error as { message: string }).message).toContain(
      "'compute.forwardingRules.update'",
    );
    const res = await creator.emulator.fetch(
      new Request(`${RULES}/fr/setTarget`, {
        method: 'POST',
        headers: { authorization: 'Bearer updater', 'content-type': 'application/json' },
        body: JSON.stringify({ target: POOL('b') }),
      }),
    );
    expect(res.status).toBe(200);
  });
});
