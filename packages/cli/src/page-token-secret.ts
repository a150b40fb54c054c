// Where `listkit filter` gets the secret that seals its page tokens: LISTKIT_PAGE_TOKEN_SECRETS
// (as the emulator), else a random secret kept for this user in
// $XDG_CONFIG_HOME/listkit/page-token-secret (mode 0600), made on first use. Never from the code:
// a token another user could forge would let them read positions of files they pass in.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT } from './cli-error.js';

export function pageTokenSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const configured = env.LISTKIT_PAGE_TOKEN_SECRETS?.split(',').filter(Boolean);
  if (configured?.length) {
    if (configured.some((s) => Buffer.byteLength(s) < 16)) {
      throw new CliError(
        'LISTKIT_PAGE_TOKEN_SECRETS: every secret needs at least 16 bytes',
        EXIT.usage,
      );
    }
    return configured;
  }
  const dir = join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'listkit');
  const file = join(dir, 'page-token-secret');
  try {
    return [readFileSync(file, 'utf8').trim()];
  } catch {
    const secret = randomBytes(32).toString('hex');
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      chmodSync(file, 0o600);
      return [secret];
    } catch (error) {
      // Another run made it in between: use theirs.
      try {
        return [readFileSync(file, 'utf8').trim()];
      } catch {
        throw new CliError(
          `cannot keep a page-token secret in ${file} (${(error as Error).message}); set LISTKIT_PAGE_TOKEN_SECRETS`,
          EXIT.input,
        );
      }
    }
  }
}
