import { describe, expect, it } from 'vitest';
import type { AuthConfig } from './auth/auth.js';
import { createEmulator } from './emulator.js';
import {
  ConfigError,
  exposureWarning,
  parseAuthConfig,
  parsePageTokenSecrets,
} from './serve-config.js';

const SOURCE = '--auth-config auth.json';
const good = { identity: 'dev@example.com', scopes: ['compute'] };
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('the auth file', () => {
  it('reads tokens and the control token', () => {
    expect(
      parseAuthConfig(
        {
          tokens: { t1: { ...good, permissions: { p: ['compute.forwardingRules.list'] } } },
          controlToken: 'c'.repeat(16),
        },
        SOURCE,
      ),
    ).toEqual({
      mode: 'strict',
      tokens: { t1: { ...good, permissions: { p: ['compute.forwardingRules.list'] } } },
      controlToken: 'c'.repeat(16),
    });
  });

  it.each<[string, unknown, string]>([
    [
      'a token without scopes',
      { tokens: { t1: { identity: 'a@b' } } },
      `token 't1': "scopes" must be an array`,
    ],
    [
      'scopes as a string',
      { tokens: { t1: { identity: 'a@b', scopes: 'compute' } } },
      `token 't1': "scopes" must be an array`,
    ],
    [
      'a token without identity',
      { tokens: { t1: { scopes: ['compute'] } } },
      `token 't1': "identity" must be a non-empty string`,
    ],
    [
      'identity not a string',
      { tokens: { t1: { identity: 5, scopes: [] } } },
      `token 't1': "identity"`,
    ],
    [
      'a grant that is not an object',
      { tokens: { t1: 'compute' } },
      `token 't1': must be an object`,
    ],
    [
      'permissions as a list',
      { tokens: { t1: { ...good, permissions: ['x'] } } },
      `token 't1': "permissions" must be an object`,
    ],
    [
      'a project permission that is not a list',
      { tokens: { t1: { ...good, permissions: { p: 'x' } } } },
      `token 't1': "permissions.p" must be an array`,
    ],
    ['no tokens', {}, '"tokens" must be an object'],
    ['tokens as a list', { tokens: [] }, '"tokens" must be an object'],
    ['not an object', [1], 'the file must hold a JSON object'],
    [
      'a short control token',
      { tokens: { t1: good }, controlToken: 'short' },
      '"controlToken" must be a string of at least 16',
    ],
    [
      'a control token that is an API token',
      { tokens: { ['x'.repeat(20)]: good }, controlToken: 'x'.repeat(20) },
      'must differ from every API token',
    ],
  ])('%s is refused, naming the token and field', (_, config, message) => {
    const text = errorOf(() => parseAuthConfig(config, SOURCE));
    expect(text.startsWith(`${SOURCE}: `)).toBe(true);
    expect(text).toContain(message);
  });

  it('names a long token by a prefix only', () => {
    const token = `secret-${'z'.repeat(40)}`;
    const text = errorOf(() =>
      parseAuthConfig({ tokens: { [token]: { identity: 'a@b' } } }, SOURCE),
    );
    expect(text).toContain("token 'secret-zzzzz…'");
    expect(text).not.toContain(token);
  });

  it('createEmulator refuses the same mistakes instead of answering 500 later', async () => {
    const auth = { mode: 'strict', tokens: { t1: { identity: 'a@b', scopes: 'compute' } } };
    await expect(createEmulator({ auth: auth as unknown as AuthConfig })).rejects.toThrow(
      `createEmulator({ auth }): token 't1': "scopes" must be an array`,
    );
  });
});

describe('LISTKIT_PAGE_TOKEN_SECRETS', () => {
  it('splits secrets, newest first', () => {
    expect(parsePageTokenSecrets('new-secret-0123456789,old-secret-0123456789')).toEqual([
      'new-secret-0123456789',
      'old-secret-0123456789',
    ]);
    expect(parsePageTokenSecrets(undefined)).toBeUndefined();
  });

  it('refuses a short secret by position, without printing it', () => {
    const text = errorOf(() => parsePageTokenSecrets('new-secret-0123456789,hunter2'));
    expect(text).toBe(
      'LISTKIT_PAGE_TOKEN_SECRETS: secret 2 of 2 is 7 bytes; each needs at least 16',
    );
    expect(errorOf(() => parsePageTokenSecrets(','))).toContain('holds no secret');
  });
});

describe('listening beyond loopback', () => {
  it.each(['127.0.0.1', '::1', 'localhost'])('%s: no warning', (host) => {
    expect(exposureWarning(host, { mode: 'open' })).toBeUndefined();
  });

  it('0.0.0.0 in open mode: a loud warning that the API and control plane are open', () => {
    const text = exposureWarning('0.0.0.0', { mode: 'open' }) ?? '';
    expect(text).toContain('WARNING: listkit is listening on 0.0.0.0, beyond loopback');
    expect(text).toContain('ANY bearer token');
    expect(text).toContain(
      'control plane (/_listkit: state of every project, seed, reset, faults) is OPEN',
    );
  });

  it('strict mode says what is guarded', () => {
    const text =
      exposureWarning('192.168.1.10', {
        mode: 'strict',
        tokens: {},
        controlToken: 'c'.repeat(16),
      }) ?? '';
    expect(text).toContain('auth: strict');
    expect(text).toContain('the control plane needs the control token');
  });
});
