// Configuration of `listkit serve` read from files and the environment, checked before the
// emulator starts: a mistake is one clear line naming what and where, never a stack trace or a
// server that answers 500 to every request.
import type { AuthConfig, TokenGrant } from './auth/auth.js';
import { isLoopback } from './http/host-check.js';

/** A configuration mistake; `listkit serve` prints the message and exits with status 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** The shortest control token accepted, in characters (a guessable one would defeat it). */
export const MIN_CONTROL_TOKEN_LENGTH = 16;
/** The shortest page-token secret accepted, in UTF-8 bytes (the codec's own minimum). */
export const MIN_PAGE_TOKEN_SECRET_BYTES = 16;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a parsed auth file, `{ tokens: { "<token>": { identity, scopes, permissions? } },
 * controlToken? }`, and returns the strict {@link AuthConfig}; `controlToken` (or the
 * environment's, which wins) guards the control plane. Throws {@link ConfigError} naming the
 * token and the field.
 *
 * @example
 * ```ts
 * parseAuthConfig({ tokens: { t: { identity: 'a@example.com', scopes: ['compute'] } } }, 'auth.json');
 * parseAuthConfig({ tokens: { t: { scopes: 'compute' } } }, 'auth.json'); // throws: token 't': "identity" …
 * ```
 */
export function parseAuthConfig(
  config: unknown,
  source: string,
  controlTokenFromEnv?: string,
): Extract<AuthConfig, { mode: 'strict' }> {
  const fail = (message: string): never => {
    throw new ConfigError(`${source}: ${message}`);
  };
  if (!isRecord(config)) fail('the file must hold a JSON object');
  const { tokens, controlToken } = config as Record<string, unknown>;
  if (!isRecord(tokens))
    fail('"tokens" must be an object of token → {identity, scopes, permissions}');
  const grants: Record<string, TokenGrant> = {};
  for (const [token, grant] of Object.entries(tokens as Record<string, unknown>)) {
    const where = `token '${token.length > 12 ? `${token.slice(0, 12)}…` : token}'`;
    if (token.trim() === '' || /\s/.test(token))
      fail(`${where}: a token cannot be empty or contain spaces`);
    if (!isRecord(grant)) fail(`${where}: must be an object {identity, scopes, permissions}`);
    const { identity, scopes, permissions } = grant as Record<string, unknown>;
    if (typeof identity !== 'string' || identity.trim() === '')
      fail(`${where}: "identity" must be a non-empty string (it becomes the user of operations)`);
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && s !== ''))
      fail(`${where}: "scopes" must be an array of scope names, such as ["compute"]`);
    if (permissions !== undefined) {
      if (!isRecord(permissions))
        fail(`${where}: "permissions" must be an object of project → [permission, …]`);
      for (const [project, list] of Object.entries(permissions as Record<string, unknown>)) {
        if (!Array.isArray(list) || !list.every((p) => typeof p === 'string'))
          fail(`${where}: "permissions.${project}" must be an array of permission names`);
      }
    }
    grants[token] = grant as unknown as TokenGrant;
  }
  const control = controlTokenFromEnv ?? controlToken;
  if (control !== undefined) {
    const name = controlTokenFromEnv !== undefined ? 'LISTKIT_CONTROL_TOKEN' : '"controlToken"';
    if (
      typeof control !== 'string' ||
      control.length < MIN_CONTROL_TOKEN_LENGTH ||
      /\s/.test(control)
    )
      fail(
        `${name} must be a string of at least ${MIN_CONTROL_TOKEN_LENGTH} characters without spaces`,
      );
    if (Object.hasOwn(grants, control as string)) fail(`${name} must differ from every API token`);
  }
  return {
    mode: 'strict',
    tokens: grants,
    ...(control === undefined ? {} : { controlToken: control as string }),
  };
}

/**
 * Splits `LISTKIT_PAGE_TOKEN_SECRETS` (comma-separated, newest first) and checks each secret's
 * length. Throws {@link ConfigError} naming the secret by position, never by value.
 *
 * @example
 * ```ts
 * parsePageTokenSecrets('new-secret-0123456789,old-secret-0123456789'); // two secrets
 * parsePageTokenSecrets('short'); // throws: secret 1 of 1 is 5 bytes …
 * ```
 */
export function parsePageTokenSecrets(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const secrets = value.split(',').filter((s) => s !== '');
  if (secrets.length === 0)
    throw new ConfigError('LISTKIT_PAGE_TOKEN_SECRETS is set but holds no secret');
  secrets.forEach((secret, i) => {
    const bytes = new TextEncoder().encode(secret).length;
    if (bytes < MIN_PAGE_TOKEN_SECRET_BYTES)
      throw new ConfigError(
        `LISTKIT_PAGE_TOKEN_SECRETS: secret ${i + 1} of ${secrets.length} is ${bytes} bytes; each needs at least ${MIN_PAGE_TOKEN_SECRET_BYTES}`,
      );
  });
  return secrets;
}

/**
 * The warning `listkit serve` prints when it listens beyond loopback, or undefined on loopback.
 *
 * @example
 * ```ts
 * exposureWarning('0.0.0.0', { mode: 'open' }); // 'WARNING: …'
 * exposureWarning('127.0.0.1', { mode: 'open' }); // undefined
 * ```
 */
export function exposureWarning(host: string, auth: AuthConfig): string | undefined {
  if (isLoopback(host)) return undefined;
  const api =
    auth.mode === 'open'
      ? 'the API accepts ANY bearer token (auth: open), so they can read, create and delete every resource'
      : 'the API needs a configured token (auth: strict)';
  const control =
    auth.controlToken !== undefined
      ? 'the control plane needs the control token'
      : auth.mode === 'open'
        ? 'the control plane (/_listkit: state of every project, seed, reset, faults) is OPEN to them'
        : 'the control plane is off (no control token)';
  const bar = '!'.repeat(78);
  return [
    bar,
    `WARNING: listkit is listening on ${host}, beyond loopback. Anyone who can reach this`,
    `address can call it: ${api}; ${control}.`,
    'It is an emulator for tests: listen on 127.0.0.1 unless you mean this.',
    bar,
  ].join('\n');
}
