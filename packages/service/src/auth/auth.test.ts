import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator, type EmulatorOptions } from '../emulator.js';
import type { TokenGrant } from './auth.js';

// Authentication, OAuth scopes and IAM permissions (spec §5), through the public HTTP interface.

const SCOPE = 'https://www.googleapis.com/auth/';

type Json = Record<string, unknown> & {
  error?: { code: number; message: string; errors: Record<string, unknown>[] };
};

const rules = (project = 'p', region = 'r') =>
  `/compute/v1/projects/${project}/regions/${region}/forwardingRules`;

/** An external rule body the real API accepts. */
const externalRule = (name: string) => ({
  name,
  IPProtocol: 'TCP',
  portRange: '80',
  loadBalancingScheme: 'EXTERNAL',
  // Relative: the rule's own project, wherever it is created (another project's pool needs
  // compute.targetPools.use there).
  target: 'regions/r/targetPools/pool',
});

/** An internal passthrough rule body with network and subnetwork. */
const internalRule = (name: string, fields: { network?: string; subnetwork?: string }) => ({
  name,
  IPProtocol: 'TCP',
  ports: ['80'],
  loadBalancingScheme: 'INTERNAL',
  backendService: 'projects/p/regions/r/backendServices/bs',
  ...fields,
});

/** Checks the Compute Engine error envelope: code, message, one errors[] item, no status. */
function expectEnvelope(json: Json, code: number, reason?: string): void {
  expect(json.error).toBeDefined();
  expect(json.error!.code).toBe(code);
  expect(typeof json.error!.message).toBe('string');
  expect(json.error!.errors).toHaveLength(1);
  expect(json.error!.errors[0]!.message).toBe(json.error!.message);
  expect(json.error!.errors[0]!.domain).toBe('global');
  if (reason) expect(json.error!.errors[0]!.reason).toBe(reason);
  expect(json.error).not.toHaveProperty('status');
}

const EVERY_PERMISSION = [
  'compute.forwardingRules.create',
  'compute.forwardingRules.list',
  'compute.forwardingRules.get',
  'compute.forwardingRules.delete',
  'compute.networks.use',
  'compute.subnetworks.use',
  'compute.regionOperations.get',
  'compute.regionOperations.list',
  'compute.regionOperations.delete',
];
const without = (...names: string[]) => EVERY_PERMISSION.filter((p) => !names.includes(p));

const grant = (
  identity: string,
  scopes: string[],
  permissions: Record<string, readonly string[]> = { '*': EVERY_PERMISSION },
): TokenGrant => ({ identity, scopes, permissions });

const TOKENS: Record<string, TokenGrant> = {
  platform: grant('platform@example.com', ['cloud-platform']),
  compute: grant('compute@example.com', ['compute']),
  platformUrl: grant('platform-url@example.com', [`${SCOPE}cloud-platform`]),
  computeUrl: grant('compute-url@example.com', [`${SCOPE}compute`]),
  reader: grant('reader@example.com', ['compute.readonly']),
  readerUrl: grant('reader-url@example.com', [`${SCOPE}compute.readonly`]),
  otherScope: grant('other@example.com', ['androidpublisher', 'devstorage.read_only']),
  noScopes: grant('none@example.com', []),
  noCreate: grant('no-create@example.com', ['compute'], {
    '*': without('compute.forwardingRules.create'),
  }),
  noList: grant('no-list@example.com', ['compute'], {
    '*': without('compute.forwardingRules.list'),
  }),
  noNetworks: grant('no-networks@example.com', ['compute'], {
    '*': without('compute.networks.use'),
  }),
  noSubnetworks: grant('no-subnetworks@example.com', ['compute'], {
    '*': without('compute.subnetworks.use'),
  }),
  p1Only: grant('p1@example.com', ['compute'], { p1: EVERY_PERMISSION }),
  p2Only: grant('p2@example.com', ['compute'], { p2: EVERY_PERMISSION }),
  p1CreateOnly: grant('p1-create@example.com', ['compute'], {
    p1: ['compute.forwardingRules.create'],
  }),
  split: grant('split@example.com', ['compute'], {
    p1: ['compute.forwardingRules.create'],
    '*': ['compute.forwardingRules.list'],
  }),
  noPermissions: { identity: 'bare@example.com', scopes: ['compute'] },
};

const strict = (extra: EmulatorOptions = {}) =>
  createEmulator({ auth: { mode: 'strict', tokens: TOKENS }, ...extra });

describe('open mode (the default)', () => {
  it.each([
    ['a short token', 'Bearer x'],
    ['a long opaque token', 'Bearer ya29.a0AfH6SMB-some.token_value'],
    ['a lower-case scheme', 'bearer abc'],
  ])('accepts any non-empty bearer token: %s', async (_, authorization) => {
    const emulator = await createEmulator();
    const list = await call(emulator, 'GET', rules(), { authorization });
    expect(list.status).toBe(200);
    const insert = await call(emulator, 'POST', rules(), {
      authorization,
      body: externalRule('fr-open'),
    });
    expect(insert.status).toBe(200);
    expect(insert.json.kind).toBe('compute#operation');
  });

  it.each([
    ['no Authorization header', undefined],
    ['Bearer with no token', 'Bearer'],
    ['Bearer and blanks', 'Bearer    '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare token', 'tok'],
  ])('answers 401 with the Compute envelope and no status for %s', async (_, authorization) => {
    const emulator = await createEmulator();
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', externalRule('fr-x')],
    ] as const) {
      const res = await call(emulator, method, rules(), {
        token: null,
        ...(authorization === undefined ? {} : { authorization }),
        body,
      });
      expect(res.status).toBe(401);
      expectEnvelope(res.json, 401, 'required');
      expect(res.json.error!.message).toMatch(/missing required authentication credential/);
    }
    // Nothing was created by the rejected insert.
    const list = await call(emulator, 'GET', rules());
    expect(list.json.items).toBeUndefined();
  });

  it("names the default identity, or the configured one, as the operation's user", async () => {
    const plain = await createEmulator();
    const a = await call(plain, 'POST', rules(), { body: externalRule('fr-a') });
    expect(a.json.user).toBe('user@example.com');
    const named = await createEmulator({ auth: { mode: 'open', identity: 'dev@corp.example' } });
    const b = await call(named, 'POST', rules(), { body: externalRule('fr-b') });
    expect(b.json.user).toBe('dev@corp.example');
  });
});

describe('strict mode: tokens', () => {
  it.each([
    ['an unknown token', 'Bearer nobody'],
    ['a token that is a prototype key', 'Bearer constructor'],
    ['another prototype key', 'Bearer __proto__'],
  ])('answers 401 authError for %s', async (_, authorization) => {
    const emulator = await strict();
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', externalRule('fr-x')],
    ] as const) {
      const res = await call(emulator, method, rules(), { authorization, body });
      expect(res.status).toBe(401);
      expectEnvelope(res.json, 401, 'authError');
      expect(res.json.error!.message).toMatch(/invalid authentication credentials/);
    }
  });

  it('still answers 401 required when the header is missing', async () => {
    const emulator = await strict();
    const res = await call(emulator, 'GET', rules(), { token: null });
    expect(res.status).toBe(401);
    expectEnvelope(res.json, 401, 'required');
  });

  it('reads the token from access_token or oauth_token when there is no header', async () => {
    const emulator = await strict();
    for (const name of ['access_token', 'oauth_token']) {
      const res = await call(emulator, 'GET', `${rules()}?${name}=reader`, { token: null });
      expect(res.status).toBe(200);
      const bad = await call(emulator, 'GET', `${rules()}?${name}=nobody`, { token: null });
      expect(bad.status).toBe(401);
      expectEnvelope(bad.json, 401, 'authError');
    }
  });
});

describe('strict mode: OAuth scopes', () => {
  // [token, can insert, can list]
  const table: [string, boolean, boolean][] = [
    ['platform', true, true],
    ['compute', true, true],
    ['platformUrl', true, true],
    ['computeUrl', true, true],
    ['reader', false, true],
    ['readerUrl', false, true],
    ['otherScope', false, false],
    ['noScopes', false, false],
  ];

  it.each(table)('token %s: insert allowed=%s, list allowed=%s', async (token, insert, list) => {
    const emulator = await strict();
    const created = await call(emulator, 'POST', rules(), { token, body: externalRule('fr-s') });
    if (insert) {
      expect(created.status).toBe(200);
      expect(created.json.user).toBe(TOKENS[token]!.identity);
    } else {
      expect(created.status).toBe(403);
      expectEnvelope(created.json, 403, 'insufficientPermissions');
      expect(created.json.error!.message).toBe('Request had insufficient authentication scopes.');
    }
    const listed = await call(emulator, 'GET', rules(), { token });
    if (list) {
      expect(listed.status).toBe(200);
      expect(listed.json.kind).toBe('compute#forwardingRuleList');
    } else {
      expect(listed.status).toBe(403);
      expectEnvelope(listed.json, 403, 'insufficientPermissions');
    }
  });

  it('a compute.readonly token lists what another token created, but cannot insert', async () => {
    const emulator = await strict();
    expect(
      (await call(emulator, 'POST', rules(), { token: 'compute', body: externalRule('fr-1') }))
        .status,
    ).toBe(200);
    const listed = await call(emulator, 'GET', rules(), { token: 'reader' });
    expect(listed.status).toBe(200);
    expect((listed.json.items as { name: string }[]).map((r) => r.name)).toEqual(['fr-1']);
    const denied = await call(emulator, 'POST', rules(), {
      token: 'reader',
      body: externalRule('fr-2'),
    });
    expect(denied.status).toBe(403);
    const after = await call(emulator, 'GET', rules(), { token: 'reader' });
    expect((after.json.items as unknown[]).length).toBe(1);
  });
});

describe('strict mode: IAM permissions', () => {
  it('403 naming compute.forwardingRules.create and the rule without the permission', async () => {
    const emulator = await strict();
    const res = await call(emulator, 'POST', rules('p', 'r'), {
      token: 'noCreate',
      body: externalRule('my-rule'),
    });
    expect(res.status).toBe(403);
    expectEnvelope(res.json, 403, 'forbidden');
    expect(res.json.error!.message).toBe(
      "Required 'compute.forwardingRules.create' permission for 'projects/p/regions/r/forwardingRules/my-rule'",
    );
    expect(res.json.error!.message).toContain('compute.forwardingRules.create');
    expect(res.json.error!.message).toContain('projects/p/regions/r/forwardingRules/my-rule');
  });

  it('403 naming compute.forwardingRules.list without the permission', async () => {
    const emulator = await strict();
    const res = await call(emulator, 'GET', rules('p', 'r'), { token: 'noList' });
    expect(res.status).toBe(403);
    expectEnvelope(res.json, 403, 'forbidden');
    expect(res.json.error!.message).toContain("'compute.forwardingRules.list'");
    expect(res.json.error!.message).toContain('projects/p/regions/r');
  });

  it('a token with no permissions at all gets 403 for insert and list', async () => {
    const emulator = await strict();
    const insert = await call(emulator, 'POST', rules(), {
      token: 'noPermissions',
      body: externalRule('fr-1'),
    });
    expect(insert.status).toBe(403);
    expect(insert.json.error!.message).toContain('compute.forwardingRules.create');
    expect((await call(emulator, 'GET', rules(), { token: 'noPermissions' })).status).toBe(403);
  });

  // [token, network set, subnetwork set, expected status, permission named in the 403]
  const fieldTable: [string, boolean, boolean, number, string | undefined][] = [
    ['noNetworks', true, false, 403, 'compute.networks.use'],
    ['noNetworks', false, true, 200, undefined],
    ['noNetworks', false, false, 200, undefined],
    ['noSubnetworks', false, true, 403, 'compute.subnetworks.use'],
    ['noSubnetworks', true, false, 200, undefined],
    ['noSubnetworks', true, true, 403, 'compute.subnetworks.use'],
    ['noNetworks', true, true, 403, 'compute.networks.use'],
    ['compute', true, true, 200, undefined],
  ];

  it.each(fieldTable)(
    'token %s, network=%s, subnetwork=%s → %i',
    async (token, network, subnetwork, status, permission) => {
      const emulator = await strict();
      const body = internalRule('fr-int', {
        ...(network ? { network: 'global/networks/default' } : {}),
        ...(subnetwork ? { subnetwork: 'regions/r/subnetworks/default' } : {}),
      });
      const res = await call(emulator, 'POST', rules('p', 'r'), { token, body });
      expect(res.status).toBe(status);
      if (permission) {
        expectEnvelope(res.json, 403, 'forbidden');
        expect(res.json.error!.message).toContain(`'${permission}'`);
        const list = await call(emulator, 'GET', rules('p', 'r'), { token: 'compute' });
        expect(list.json.items).toBeUndefined(); // nothing was created
      } else {
        expect(res.json.operationType).toBe('insert');
      }
    },
  );

  it('permissions are per project; "*" covers every project', async () => {
    const emulator = await strict();
    // p1Only: allowed in p1 only.
    expect(
      (await call(emulator, 'POST', rules('p1'), { token: 'p1Only', body: externalRule('a') }))
        .status,
    ).toBe(200);
    const denied = await call(emulator, 'POST', rules('p2'), {
      token: 'p1Only',
      body: externalRule('a'),
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error!.message).toContain("'projects/p2/regions/r/forwardingRules/a'");
    expect((await call(emulator, 'GET', rules('p2'), { token: 'p1Only' })).status).toBe(403);
    // p1CreateOnly can create in p1 but not list there.
    expect(
      (
        await call(emulator, 'POST', rules('p1'), {
          token: 'p1CreateOnly',
          body: externalRule('b'),
        })
      ).status,
    ).toBe(200);
    expect((await call(emulator, 'GET', rules('p1'), { token: 'p1CreateOnly' })).status).toBe(403);
    // split: a project grant and a '*' grant add up.
    expect(
      (await call(emulator, 'POST', rules('p1'), { token: 'split', body: externalRule('c') }))
        .status,
    ).toBe(200);
    expect(
      (await call(emulator, 'POST', rules('p3'), { token: 'split', body: externalRule('c') }))
        .status,
    ).toBe(403);
    for (const project of ['p1', 'p2', 'p3', 'any-project-at-all']) {
      expect((await call(emulator, 'GET', rules(project), { token: 'split' })).status).toBe(200);
      expect((await call(emulator, 'GET', rules(project), { token: 'compute' })).status).toBe(200);
    }
  });

  it("a principal's rules never leak into another project's list", async () => {
    const emulator = await strict();
    const created = await call(emulator, 'POST', rules('p1'), {
      token: 'platform',
      body: externalRule('secret-rule'),
    });
    expect(created.status).toBe(200);
    const p1 = await call(emulator, 'GET', rules('p1'), { token: 'platform' });
    expect((p1.json.items as { name: string }[]).map((r) => r.name)).toEqual(['secret-rule']);
    // The same principal lists p2: empty.
    const p2 = await call(emulator, 'GET', rules('p2'), { token: 'platform' });
    expect(p2.status).toBe(200);
    expect(p2.json).not.toHaveProperty('items');
    // Another region of p1: empty too.
    const otherRegion = await call(emulator, 'GET', rules('p1', 'other'), { token: 'platform' });
    expect(otherRegion.json).not.toHaveProperty('items');
    // A token whose permissions cover only p2 cannot list p1.
    const p2Token = await call(emulator, 'GET', rules('p1'), { token: 'p2Only' });
    expect(p2Token.status).toBe(403);
    expect(JSON.stringify(p2Token.json)).not.toContain('secret-rule');
    // …and sees nothing in its own project.
    const own = await call(emulator, 'GET', rules('p2'), { token: 'p2Only' });
    expect(own.status).toBe(200);
    expect(own.json).not.toHaveProperty('items');
    // Filtering cannot reach across projects either.
    const filtered = await call(
      emulator,
      'GET',
      `${rules('p2')}?filter=${encodeURIComponent('name = secret-rule')}`,
      { token: 'p2Only' },
    );
    expect(filtered.json).not.toHaveProperty('items');
  });

  it("the operation's user is the token's identity, also on delete and when read back", async () => {
    const emulator = await strict();
    const insert = await call(emulator, 'POST', rules(), {
      token: 'compute',
      body: externalRule('fr-u'),
    });
    expect(insert.json.user).toBe('compute@example.com');
    const read = await call(
      emulator,
      'GET',
      `/compute/v1/projects/p/regions/r/operations/${insert.json.name}`,
      { token: 'reader' },
    );
    expect(read.status).toBe(200);
    expect(read.json.user).toBe('compute@example.com');
    const del = await call(emulator, 'DELETE', `${rules()}/fr-u`, { token: 'platform' });
    expect(del.status).toBe(200);
    expect(del.json.user).toBe('platform@example.com');
  });

  it('a compute.readonly token cannot delete a rule or an operation', async () => {
    const emulator = await strict();
    const insert = await call(emulator, 'POST', rules(), {
      token: 'compute',
      body: externalRule('fr-d'),
    });
    expect((await call(emulator, 'DELETE', `${rules()}/fr-d`, { token: 'reader' })).status).toBe(
      403,
    );
    expect(
      (
        await call(
          emulator,
          'DELETE',
          `/compute/v1/projects/p/regions/r/operations/${insert.json.name}`,
          { token: 'reader' },
        )
      ).status,
    ).toBe(403);
    expect((await call(emulator, 'GET', `${rules()}/fr-d`, { token: 'reader' })).status).toBe(200);
  });

  // Regression (auth.ts requirePermission): permissions are looked up with `principal.permissions[project]`
  // on a plain object, so a project id that is an Object.prototype key ("constructor" is a valid
  // GCP project id) yields a function/object that is then spread as an array → TypeError → 500,
  // even for a token whose '*' grant covers every project. Expected: 200 (or 403 without a grant).
  it('a "*" grant covers a project named "constructor" (prototype key)', async () => {
    const emulator = await strict();
    const res = await call(emulator, 'GET', rules('constructor'), { token: 'compute' });
    expect(res.status).toBe(200);
  });

  it('a project named "constructor" without a grant is 403, not 500', async () => {
    const emulator = await strict();
    const res = await call(emulator, 'GET', rules('constructor'), { token: 'p1Only' });
    expect(res.status).toBe(403);
  });
});
