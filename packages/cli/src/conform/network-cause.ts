// What went wrong on the way to the server, in words: fetch reports every network failure as a
// bare "TypeError: fetch failed" (or "terminated" mid-body) and keeps the real cause in `cause`.

/** What each error code means, for the codes a list call meets. */
const MEANINGS: Record<string, string> = {
  ECONNRESET: 'the connection was reset',
  ECONNREFUSED: 'the connection was refused',
  ECONNABORTED: 'the connection was aborted',
  EPIPE: 'the connection was closed while sending',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up now',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_OVERFLOW: 'the response headers are too large (header overflow)',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the body is not as long as its Content-Length',
  HPE_HEADER_OVERFLOW: 'the response headers are too large (header overflow)',
  Z_DATA_ERROR: 'the body is not valid for its Content-Encoding',
  Z_BUF_ERROR: 'the compressed body ends too soon',
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is not for this host",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's certificate cannot be verified",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
};

/**
 * The cause of a failed fetch in one line: the first error code in the `cause` chain and what it
 * means (`ECONNRESET: the connection was reset`), else the innermost message.
 *
 * @example
 * networkCause(new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }));
 * // 'ECONNRESET: the connection was reset'
 */
export function networkCause(error: unknown): string {
  let innermost = error instanceof Error ? error.message : String(error);
  const seen = new Set<unknown>();
  for (let at: unknown = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    innermost = at.message;
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') {
      return `${code}: ${MEANINGS[code] ?? at.message}`;
    }
  }
  return innermost;
}

/** Whether the failure is a timeout signal's abort (anywhere in the `cause` chain). */
export function isTimeout(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let at: unknown = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    if (at.name === 'TimeoutError') return true;
  }
  return false;
}
