import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import type { AuthConfig } from '../auth/auth.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { hostAllowed, isLoopback } from '../http/host-check.js';

// Who may use the control plane (/_listkit), and from where, through HTTP.

const RULES = '/compute/v1/projects/p/regions/r/forwardingRules';
const JSON_TYPE = { 'content-type': 'application/json' };

/** Every request here carries exactly the headers given: no default token or content type. */
const BARE = { bareHeaders: true };

const insertRule = (emulator: Emulator, token = 'api-token') =>
  call(emulator, 'POST', RULES, {
    ...BARE,
    headers: { authorization: `Bearer ${token}`, ...JSON_TYPE },
    body: JSON.stringify({ name: 'fr-1', IPProtocol: 'TCP', loadBalancingScheme: 'EXTERNAL' }),
  });
const ruleCount = async (emulator: Emulator) => (await emulator.state.forwardingRules.all()).length;

describe('control plane bodies: application/json only, in every mode', () => {
  it.each([
    ['text/plain (a cross-site form or no-cors fetch)', { 'content-type': 'text/plain' }, '{}'],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['no Content-Type and no body', {}, undefined],
  ])('POST /reset with %s is 415 and wipes nothing', async (_, headers, body) => {
    const emulator = await createEmulator();
    await insertRule(emulator);
    const res = await call(emulator, 'POST', '/_listkit/reset', { ...BARE, headers, body });
    expect(res.status).toBe(415);
    expect(res.json.error.message).toContain('application/json');
    expect(await ruleCount(emulator)).toBe(1);
  });

  it('refuses a text/plain seed, fault, clock or policy change', async () => {
    const emulator = await createEmulator();
    const plain = { 'content-type': 'text/plain;charset=UTF-8' };
    const seed = JSON.stringify({
      forwardingRules: [{ project: 'q', region: 'r', rule: { name: 'x' } }],
    });
    expect(
      (await call(emulator, 'POST', '/_listkit/seed', { ...BARE, headers: plain, body: seed }))
        .status,
    ).toBe(415);
    expect(
      (
        await call(emulator, 'POST', '/_listkit/faults', {
          ...BARE,
          headers: plain,
          body: '{"method":"*","status":503}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call(emulator, 'POST', '/_listkit/clock', {
          ...BARE,
          headers: plain,
          body: '{"advance":"10s"}',
        })
      ).status,
    ).toBe(415);
    expect(
      (
        await call(emulator, 'PUT', '/_listkit/operations/policy', {
          ...BARE,
          headers: plain,
          body: '{"mode":"polls","polls":3}',
        })
      ).status,
    ).toBe(415);
    expect(await ruleCount(emulator)).toBe(0);
    expect(emulator.state.faults.list()).toEqual([]);
    expect(emulator.state.operationPolicy).toEqual({ mode: 'immediate' });
  });

  it('accepts application/json with parameters, and reads without a Content-Type', async () => {
    const emulator = await createEmulator();
    await insertRule(emulator);
    expect((await call(emulator, 'GET', '/_listkit/state', BARE)).status).toBe(200);
    const res = await call(emulator, 'POST', '/_listkit/reset', {
      ...BARE,
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(await ruleCount(emulator)).toBe(0);
  });
});

describe('the control token', () => {
  const strict = (controlToken?: string): AuthConfig => ({
    mode: 'strict',
    tokens: {
      'api-token': {
        identity: 'dev@example.com',
        scopes: ['compute'],
        permissions: { p: ['compute.forwardingRules.create'] },
      },
    },
    ...(controlToken === undefined ? {} : { controlToken }),
  });

  it('strict mode without a control token: the control plane is off, health stays up', async () => {
    const emulator = await createEmulator({ auth: strict() });
    expect((await insertRule(emulator)).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/_listkit/state'],
      ['GET', '/_listkit/requests'],
      ['POST', '/_listkit/reset'],
      ['POST', '/_listkit/seed'],
      ['POST', '/_listkit/faults'],
    ] as const) {
      const res = await call(emulator, method, path, {
        ...BARE,
        headers: { authorization: 'Bearer api-token', ...JSON_TYPE },
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error.message).toContain('controlToken');
    }
    expect(await ruleCount(emulator)).toBe(1);
    expect((await call(emulator, 'GET', '/_listkit/health', BARE)).status).toBe(200);
  });

  it('strict mode with a control token: only that token opens it, not an API token', async () => {
    const emulator = await createEmulator({ auth: strict('ctl-secret-0123456789') });
    await insertRule(emulator);
    for (const authorization of [undefined, 'Bearer api-token', 'Bearer ctl-secret', 'Basic x']) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      expect((await call(emulator, 'GET', '/_listkit/state', { ...BARE, headers })).status).toBe(
        401,
      );
      expect(
        (
          await call(emulator, 'POST', '/_listkit/reset', {
            ...BARE,
            headers: { ...headers, ...JSON_TYPE },
          })
        ).status,
      ).toBe(401);
    }
    expect(await ruleCount(emulator)).toBe(1);
    const control = { authorization: 'Bearer ctl-secret-0123456789', ...JSON_TYPE };
    const state = await call(emulator, 'GET', '/_listkit/state', { ...BARE, headers: control });
    expect(state.status).toBe(200);
    expect(state.json.forwardingRules).toHaveLength(1);
    expect(
      (await call(emulator, 'POST', '/_listkit/reset', { ...BARE, headers: control })).status,
    ).toBe(200);
    expect(await ruleCount(emulator)).toBe(0);
    // The control token is no API credential.
    expect((await insertRule(emulator, 'ctl-secret-0123456789')).status).toBe(401);
  });

  it('open mode stays open unless a control token is configured', async () => {
    const open = await createEmulator();
    expect((await call(open, 'GET', '/_listkit/state', BARE)).status).toBe(200);
    const guarded = await createEmulator({
      auth: { mode: 'open', controlToken: 'ctl-0123456789abcdef' },
    });
    expect((await call(guarded, 'GET', '/_listkit/state', BARE)).status).toBe(401);
    expect(
      (await call(guarded, 'GET', RULES, { ...BARE, headers: { authorization: 'Bearer any' } }))
        .status,
    ).toBe(200);
  });
});

/** A raw HTTP/1.1 GET with a chosen Host header (fetch does not let a caller set Host). */
function getWithHost(url: string, path: string, host: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: 'GET', headers: { host, authorization: 'Bearer x' } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the Host header (DNS rebinding)', () => {
  let emulator: Emulator | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('a listening emulator answers only Hosts that name it', async () => {
    emulator = await createEmulator();
    const url = await emulator.listen(0);
    const port = new URL(url).port;
    for (const path of ['/_listkit/state', '/_listkit/health', RULES]) {
      expect(await getWithHost(url, path, `evil.example:${port}`), path).toBe(403);
      expect(await getWithHost(url, path, 'evil.example'), path).toBe(403);
      expect(await getWithHost(url, path, `127.0.0.1:${port}`), path).toBe(200);
      expect(await getWithHost(url, path, `localhost:${port}`), path).toBe(200);
      expect(await getWithHost(url, path, `127.0.0.1:${(Number(port) % 65535) + 1}`), path).toBe(
        403,
      );
    }
    // Node's own fetch, as the real clients use it, sends the URL's host.
    expect((await fetch(`${url}/_listkit/state`)).status).toBe(200);
  });

  it('allowedHosts adds names, with any port or one port', async () => {
    emulator = await createEmulator({ allowedHosts: ['emulator.internal', 'Other.Test:8080'] });
    const url = await emulator.listen(0);
    const port = new URL(url).port;
    expect(await getWithHost(url, RULES, `emulator.internal:${port}`)).toBe(200);
    expect(await getWithHost(url, RULES, 'EMULATOR.internal')).toBe(200);
    expect(await getWithHost(url, RULES, 'other.test:8080')).toBe(200);
    expect(await getWithHost(url, RULES, `other.test:${port}`)).toBe(403);
    expect(await getWithHost(url, RULES, `evil.example:${port}`)).toBe(403);
  });

  it.each<[string | null, number | undefined, string[], boolean]>([
    ['127.0.0.1:8787', 8787, [], true],
    ['[::1]:8787', 8787, [], true],
    ['10.1.2.3:8787', 8787, [], true],
    ['localhost:8787', 8787, [], true],
    ['127.0.0.1', 80, [], true],
    ['127.0.0.1:80', 80, [], true],
    ['127.0.0.1:8788', 8787, [], false],
    ['evil.example:8787', 8787, [], false],
    ['127.0.0.1.evil.example:8787', 8787, [], false],
    ['localhost.evil.example:8787', 8787, [], false],
    ['user@127.0.0.1:8787', 8787, [], false],
    ['127.0.0.1:8787/x', 8787, [], false],
    ['', 8787, [], false],
    [null, 8787, [], false],
    ['anything.test:1', 8787, ['anything.test'], true],
    ['evil.example:9', undefined, [], false],
    ['127.0.0.1:9', undefined, [], true],
  ])('hostAllowed(%j, %j, %j) is %j', (host, port, allowed, expected) => {
    expect(hostAllowed(host, port, new Set(allowed))).toBe(expected);
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
  ])('isLoopback(%j) is %j', (host, expected) => {
    expect(isLoopback(host)).toBe(expected);
  });
});
