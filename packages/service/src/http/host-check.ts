import { isIP } from 'node:net';

/**
 * Whether a request's `Host` header names the emulator, the defence against DNS rebinding: a web
 * page on `evil.example` whose name is re-pointed at 127.0.0.1 can reach a loopback server, but
 * its requests still carry `Host: evil.example`. Accepted:
 *
 * - an IP literal (`127.0.0.1`, `[::1]`, `10.0.0.5`) or `localhost`, on the port being served
 *   (no rebinding page can present an IP literal as its own name);
 * - a name in `allowed` (`emulator.internal`, any port) or a `name:port` in it (that port only).
 *
 * `servedPort` is the port the emulator listens on; undefined (embedded, not listening) accepts
 * IP literals and `localhost` on any port.
 *
 * @example
 * ```ts
 * hostAllowed('127.0.0.1:8787', 8787, new Set()); // true
 * hostAllowed('evil.example:8787', 8787, new Set()); // false
 * hostAllowed('emulator.internal:8787', 8787, new Set(['emulator.internal'])); // true
 * ```
 */
export function hostAllowed(
  host: string | null | undefined,
  servedPort: number | undefined,
  allowed: ReadonlySet<string>,
): boolean {
  // A Host is an authority only: no user info, path, query or fragment.
  if (!host || /[/?#@\\\s]/.test(host)) return false;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return false;
  }
  const name = url.hostname;
  const port = url.port === '' ? 80 : Number(url.port);
  if (allowed.has(name) || allowed.has(`${name}:${port}`)) return true;
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (isIP(literal) === 0 && name !== 'localhost') return false;
  return servedPort === undefined || port === servedPort;
}

/** Whether a listen address is loopback only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
