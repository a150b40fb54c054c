import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator } from '../emulator.js';

// Strict auth on the global routes: their own API methods and IAM permissions
// (`compute.globalForwardingRules.*`, `compute.globalOperations.*`), never the regional ones'.

const GLOBAL = '/compute/v1/projects/p/global';
const REGIONAL = '/compute/v1/projects/p/regions/r';
const body = { name: 'gfr', target: 'projects/p/global/targetHttpProxies/hp', portRange: '80' };

const strict = () =>
  createEmulator({
    auth: {
      mode: 'strict',
      tokens: {
        global: {
          identity: 'global@example.com',
          scopes: ['compute'],
          permissions: {
            p: [
              'compute.globalForwardingRules.create',
              'compute.globalForwardingRules.list',
              'compute.globalForwardingRules.get',
              'compute.globalOperations.get',
            ],
          },
        },
        regional: {
          identity: 'regional@example.com',
          scopes: ['compute'],
          permissions: { p: ['compute.forwardingRules.create', 'compute.forwardingRules.list'] },
        },
      },
    },
  });

describe('global routes under strict auth', () => {
  it('check the global permissions, named on the global resource', async () => {
    const emulator = await strict();
    const inserted = await call(emulator, 'POST', `${GLOBAL}/forwardingRules`, {
      token: 'global',
      body,
    });
    expect(inserted.status).toBe(200);
    const op = inserted.json.name as string;
    expect(
      (await call(emulator, 'GET', `${GLOBAL}/operations/${op}`, { token: 'global' })).status,
    ).toBe(200);
    expect(
      (await call(emulator, 'GET', `${GLOBAL}/forwardingRules`, { token: 'global' })).status,
    ).toBe(200);
    expect(
      (await call(emulator, 'GET', `${GLOBAL}/forwardingRules/gfr`, { token: 'global' })).status,
    ).toBe(200);

    // The regional permissions open the regional routes only.
    const denied = await call(emulator, 'POST', `${GLOBAL}/forwardingRules`, {
      token: 'regional',
      body: { ...body, name: 'gfr-2' },
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error.message).toBe(
      "Required 'compute.globalForwardingRules.create' permission for 'projects/p/global/forwardingRules/gfr-2'",
    );
    const list = await call(emulator, 'GET', `${GLOBAL}/forwardingRules`, { token: 'regional' });
    expect(list.status).toBe(403);
    expect(list.json.error.message).toBe(
      "Required 'compute.globalForwardingRules.list' permission for 'projects/p'",
    );
    expect(
      (await call(emulator, 'GET', `${REGIONAL}/forwardingRules`, { token: 'global' })).status,
    ).toBe(403);
    expect(
      (await call(emulator, 'GET', `${REGIONAL}/forwardingRules`, { token: 'regional' })).status,
    ).toBe(200);

    // A delete without its permission changes nothing.
    const del = await call(emulator, 'DELETE', `${GLOBAL}/forwardingRules/gfr`, {
      token: 'global',
    });
    expect(del.status).toBe(403);
    expect(del.json.error.message).toContain("'compute.globalForwardingRules.delete'");
    expect(emulator.state.requests.list().map((r) => r.apiMethod)).toContain(
      'compute.globalOperations.get',
    );
    await emulator.close();
  });
});
