import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const gzipAsync = promisify(gzip);

/**
 * How the emulator gzips JSON answers (`EmulatorOptions.compression`).
 *
 * @example
 * ```ts
 * const emulator = await createEmulator({ compression: { threshold: 1024, level: 6 } });
 * ```
 */
export interface CompressionOptions {
  /** Bodies smaller than this many bytes are sent as they are. Default 8192. */
  threshold?: number;
  /** zlib level, 1 (fastest) to 9 (smallest). Default 1. */
  level?: number;
}

/** Content types worth compressing: JSON and text. */
const COMPRESSIBLE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Gzips a response when the client's `Accept-Encoding` accepts gzip and the body is JSON or text
 * of at least `threshold` bytes, as Compute Engine does for large lists (a 410 kB page of 500
 * rules is about 38 kB at level 1). Adds `Vary: Accept-Encoding` to every compressible answer.
 * The compression runs on the thread pool (zlib's async API), not on the event loop. Only gzip is
 * offered (docs/decisions.md: the encoding every Google client asks for).
 *
 * @example
 * ```ts
 * app.use('*', gzipResponses({ threshold: 8192, level: 1 }));
 * ```
 */
export function gzipResponses(options: CompressionOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 8192;
  const level = options.level ?? 1;
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('content-type');
    if (!type || !COMPRESSIBLE.test(type) || res.headers.has('content-encoding')) return;
    if (NO_TRANSFORM.test(res.headers.get('cache-control') ?? '')) return;
    const vary = res.headers.get('vary');
    if (!vary) res.headers.set('vary', 'Accept-Encoding');
    else if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) {
      res.headers.set('vary', `${vary}, Accept-Encoding`);
    }
    // Never touch `res.body` before deciding: on @hono/node-server that turns its lightweight
    // Response (bytes written straight to the socket) into a Web stream, several times slower.
    if (c.req.method === 'HEAD' || !acceptsGzip(c.req.header('accept-encoding'))) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) < threshold) return;
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.length < threshold) {
      c.res = undefined; // replace, not merge: the body was read
      c.res = new Response(body, res);
      return;
    }
    const headers = new Headers(res.headers);
    headers.set('content-encoding', 'gzip');
    headers.delete('content-length');
    // The gzipped bytes are another representation: a strong validator no longer names them.
    const etag = headers.get('etag');
    if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
    const zipped = await gzipAsync(body, { level });
    c.res = undefined;
    c.res = new Response(new Uint8Array(zipped.buffer, zipped.byteOffset, zipped.length), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}

/**
 * Whether an `Accept-Encoding` header accepts gzip: listed (or `*`) with a q-value above 0
 * (RFC 9110 §12.5.3). `gzip;q=0` refuses it; an absent header asks for no encoding.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const coding = name.toLowerCase();
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([0-9.]+)$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (coding === '*') wildcard = q;
    else return q > 0;
  }
  return wildcard !== undefined && wildcard > 0;
}
