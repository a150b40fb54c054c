import { t } from '@listkit/query';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type AuthConfig, authenticate } from '../auth/auth.js';
import type { EmulatorEnv } from '../emulator-state.js';
import { apiCall } from './api-call.js';
import { ApiError } from './api-error.js';
import { Faults } from './faults.js';

const AUTH: AuthConfig = {
  mode: 'strict',
  tokens: {
    reader: {
      identity: 'reader@example.com',
      scopes: ['compute.readonly'],
      permissions: { p: ['things.get'] },
    },
    nobody: { identity: 'nobody@example.com', scopes: ['compute.readonly'] },
    writer: {
      identity: 'writer@example.com',
      scopes: ['compute'],
      permissions: { p: ['things.get'] },
    },
  },
};

/** A one-route app behind apiCall, answering who called; it records what the middleware set. */
function app(faults = new Faults()) {
  const seen: { apiMethod?: string; principal?: string } = {};
  const hono = new Hono<EmulatorEnv>();
  hono.onError((error, c) => {
    seen.apiMethod = c.get('apiMethod');
    seen.principal = c.get('principal');
    return error instanceof ApiError ? error.toResponse() : c.text(String(error), 500);
  });
  hono.get(
    '/p/:project/things/:name',
    apiCall(
      { faults, authenticate: (request) => authenticate(request, AUTH) },
      {
        method: 'things.get',
        scopes: ['compute.readonly'],
        permission: {
          name: 'things.get',
          on: (c) => ({
            project: c.req.param('project')!,
            resource: `projects/${c.req.param('project')}/things/${c.req.param('name')}`,
          }),
        },
        parameters: ['filter'],
        answer: t.message({ caller: t.string(), method: t.string() }),
      },
    ),
    (c) => c.json({ caller: c.var.caller.identity, method: c.get('apiMethod') }),
  );
  const get = async (path: string, token?: string) => {
    const res = await hono.fetch(
      new Request(`http://x${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    );
    return {
      status: res.status,
      json: (await res.json()) as { caller?: string; method?: string; error?: { message: string } },
    };
  };
  return { get, seen };
}

describe('apiCall', () => {
  it('names the call and hands the authenticated caller to the handler', async () => {
    const { get } = app();
    expect(await get('/p/p/things/a', 'reader')).toEqual({
      status: 200,
      json: { caller: 'reader@example.com', method: 'things.get' },
    });
  });

  it('answers 401 without a token, naming the call in the log', async () => {
    const { get, seen } = app();
    expect((await get('/p/p/things/a')).status).toBe(401);
    expect(seen).toEqual({ apiMethod: 'things.get', principal: undefined });
  });

  it('answers 403 for a missing scope before looking at permissions', async () => {
    const faults = new Faults();
    const { get } = app(faults);
    const res = await get('/p/p/things/a', 'writer');
    // `compute` is not `compute.readonly`: the scope check refuses first.
    expect(res.status).toBe(403);
    expect(res.json.error?.message).not.toContain('permission');
  });

  it('answers 403 naming the permission and the resource from the path', async () => {
    const { get, seen } = app();
    const res = await get('/p/p/things/a', 'nobody');
    expect(res.status).toBe(403);
    expect(res.json.error?.message).toBe(
      "Required 'things.get' permission for 'projects/p/things/a'",
    );
    expect(seen.principal).toBe('nobody@example.com');
  });

  it('applies an injected fault before authenticating', async () => {
    const faults = new Faults();
    faults.add({ method: 'things.get', status: 503, reason: 'backendError', message: 'down' });
    const { get } = app(faults);
    expect((await get('/p/p/things/a')).status).toBe(503);
  });

  it('answers who may call first, then refuses a query parameter holding U+0000 (400 naming it)', async () => {
    const { get } = app();
    expect((await get('/p/p/things/a?filter=%00')).status).toBe(401);
    expect((await get('/p/p/things/a?filter=%00', 'nobody')).status).toBe(403);
    const res = await get('/p/p/things/a?alt=json&filter=a%00', 'reader');
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(
      "Invalid value for field 'filter': 'a\\u0000'. Must be valid UTF-8 text without NUL (U+0000).",
    );
  });

  it('answers a name in the path holding U+0000 as a path nothing serves, when the route declares no target', async () => {
    const { get } = app();
    expect((await get('/p/p/things/a%00b', 'nobody')).status).toBe(403);
    const res = await get('/p/p/things/a%00b', 'reader');
    expect(res.status).toBe(404);
    expect(res.json.error?.message).toBe(
      'The requested URL /p/p/things/a%00b was not found on this server.',
    );
  });

  it('answers only the fields selected, checked before the handler runs', async () => {
    const { get } = app();
    expect(await get('/p/p/things/a?fields=caller', 'reader')).toEqual({
      status: 200,
      json: { caller: 'reader@example.com' },
    });
    expect((await get('/p/p/things/a?$fields=method', 'reader')).json).toEqual({
      method: 'things.get',
    });
    const bad = await get('/p/p/things/a?fields=calller', 'reader');
    expect(bad.status).toBe(400);
    expect(bad.json.error?.message).toBe(
      "Invalid field selection 'calller': unknown field 'calller'; did you mean 'caller'? (1:1)",
    );
  });

  it('refuses a parameter the method does not have, and accepts the system parameters', async () => {
    const { get } = app();
    const res = await get('/p/p/things/a?skip=2', 'reader');
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe(
      'Invalid JSON payload received. Unknown name "skip": Cannot bind query parameter. Field \'skip\' could not be found in request message.',
    );
    const system =
      'alt=json&$alt=json&prettyPrint=false&$prettyPrint=true&quotaUser=q&$quotaUser=q&key=k&$.xgafv=2&userIp=1.2.3.4&uploadType=media&upload_protocol=raw&filter=x';
    expect((await get(`/p/p/things/a?${system}`, 'reader')).status).toBe(200);
  });
});
