import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const deflateRawAsync = promisify(deflateRaw);
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
  /**
   * Bytes kept by the cache of compressed bodies (default 32 MiB; 0 turns it off): what a body
   * repeats from an earlier answer, byte for byte, is not compressed again. See
   * {@link GzipCache}.
   */
  cacheBytes?: number;
}

/** Content types worth compressing: JSON and text. */
const COMPRESSIBLE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Gzips a response when the client's `Accept-Encoding` accepts gzip and the body is JSON or text
 * of at least `threshold` bytes, as Compute Engine does for large lists (a 410 kB page of 500
 * rules is about 38 kB at level 1). Adds `Vary: Accept-Encoding` to every compressible answer.
 * The compression runs on the thread pool (zlib's async API), not on the event loop. Only gzip is
 * offered (the encoding every Google client asks for: decision 0029,
 * docs/decisions/0029-gzip-as-googles-apis-answer-level-1-above-8-kib-only-for-a.md).
 *
 * `userAgentGated(path)` names the paths that follow Google's API rule as well: their clients
 * must also say `gzip` in their `User-Agent` ({@link userAgentReadsGzip}); other paths need only
 * `Accept-Encoding`.
 *
 * @example
 * ```ts
 * app.use('*', gzipResponses({ threshold: 8192, level: 1 }, (path) => path.startsWith('/compute/')));
 * ```
 */
export function gzipResponses(
  options: CompressionOptions = {},
  userAgentGated: (path: string) => boolean = () => false,
): MiddlewareHandler {
  const threshold = options.threshold ?? 8192;
  const level = options.level ?? 1;
  const cache = new GzipCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
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
    if (userAgentGated(c.req.path) && !userAgentReadsGzip(c.req.header('user-agent'))) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) < threshold) return;
    const kept = bodyBytes(res);
    if (kept !== undefined && kept.length < threshold) return; // not read: the answer stands
    const body = kept ?? new Uint8Array(await res.arrayBuffer());
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
    const zipped = await cache.gzip(body, level);
    c.res = undefined;
    // A zlib or concatenated Buffer: its memory is a plain ArrayBuffer.
    c.res = new Response(
      new Uint8Array(zipped.buffer as ArrayBuffer, zipped.byteOffset, zipped.length),
      {
        // Not statusText: on @hono/node-server's Response that getter builds a Web Response,
        // copying the body; the reason phrase on the wire is Node's own anyway.
        status: res.status,
        headers,
      },
    );
  };
}

/** The default {@link CompressionOptions.cacheBytes}. */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Where the part of a body that differs between two answers of the same page begins: a page
 * token is sealed afresh for every answer, so everything from it on is compressed per answer.
 */
const VARYING = Buffer.from('"nextPageToken":');

/** An empty final deflate block (fixed Huffman codes: BFINAL 1, BTYPE 01, end of block). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

interface CachedPrefix {
  /** The uncompressed bytes, compared in full before a hit is used. */
  readonly bytes: Uint8Array;
  /** Raw deflate blocks of `bytes`, none final, ending byte-aligned (a sync flush). */
  readonly deflated: Buffer;
  /** The CRC-32 of `bytes`, which the gzip trailer of every answer starting with them needs. */
  readonly crc: number;
}

/** Bytes of a prefix read for its cache key: spread over it, a few microseconds at most. */
const KEY_SAMPLES = 256;
/** The longest stored (uncompressed) deflate block: its LEN is 16 bits (RFC 1951 §3.2.4). */
const MAX_STORED_BLOCK = 0xffff;

/**
 * Gzips bodies, keeping the compressed form of each body's stable prefix (everything before
 * `"nextPageToken":`, or the whole body) with its CRC-32: the same page answered again
 * compresses nothing, and the ~300 bytes from its token on are sent as a stored deflate block.
 * A gzip member is one deflate stream, and deflate blocks may be joined when the first part
 * ends byte-aligned (a sync flush) and the second refers to nothing before it, so the answer is
 * the cached blocks, the tail's stored block (the last one final) and the CRC-32 and length of
 * the whole body.
 *
 * Entries are found by the prefix's length and a sample of its bytes, then used only when the
 * whole prefix is the same byte for byte (a different prefix under the same key is compressed
 * and takes the entry's place), so nothing needs invalidating: a rule inserted, changed or
 * deleted, a reset or a seed changes the pages it appears in, and their old entries simply stop
 * being asked for. Neither a hit nor a miss reads the prefix for its CRC more than once (a CRC of
 * a 500 kB page took 0.12 ms, twice the comparison). Least recently used entries go first once the
 * uncompressed and compressed bytes kept exceed `maxBytes`; a prefix larger than a quarter of it
 * is never kept.
 */
export class GzipCache {
  private readonly entries = new Map<string, CachedPrefix>();
  private bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held (uncompressed prefixes and their compressed blocks). */
  get size(): number {
    return this.bytes;
  }

  /** The body as one gzip member; at `level` when it has to be compressed. */
  async gzip(body: Uint8Array, level: number): Promise<Buffer> {
    if (this.maxBytes <= 0) return gzipAsync(body, { level });
    const at =
      body.length > 0
        ? Buffer.from(body.buffer, body.byteOffset, body.length).lastIndexOf(VARYING)
        : -1;
    const cut = at > 0 ? at : body.length;
    const prefix = body.subarray(0, cut);
    const tail = body.subarray(cut);
    const key = sampleKey(prefix);
    let entry = this.entries.get(key);
    if (entry && Buffer.compare(entry.bytes, prefix) === 0) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, entry);
    } else {
      const deflated = await deflateRawAsync(prefix, {
        level,
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      entry = this.keep(key, prefix, deflated, crc32(prefix));
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(tail.length > 0 ? crc32(tail, entry.crc) : entry.crc, 0);
    trailer.writeUInt32LE(body.length % 2 ** 32, 4);
    return Buffer.concat([
      gzipHeader(level),
      entry.deflated,
      ...(tail.length > 0 ? storedBlocks(tail) : [FINAL_BLOCK]),
      trailer,
    ]);
  }

  private keep(key: string, prefix: Uint8Array, deflated: Buffer, crc: number): CachedPrefix {
    // A copy: the body's buffer may be a pooled one, reused once its answer is sent.
    const entry: CachedPrefix = { bytes: prefix.slice(), deflated, crc };
    const cost = prefix.length + deflated.length;
    if (cost > this.maxBytes / 4) return entry;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes.length + old.deflated.length;
    }
    this.entries.set(key, entry);
    this.bytes += cost;
    for (const [oldest, kept] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= kept.bytes.length + kept.deflated.length;
    }
    return entry;
  }
}

/** A cache key of a prefix: its length and an FNV-1a hash of {@link KEY_SAMPLES} of its bytes. */
function sampleKey(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  const step = Math.max(1, Math.floor(bytes.length / KEY_SAMPLES));
  for (let at = 0; at < bytes.length; at += step) hash = Math.imul(hash ^ bytes[at]!, 0x01000193);
  return `${bytes.length}:${hash >>> 0}`;
}

/**
 * Bytes as stored (uncompressed) deflate blocks, the last one final (RFC 1951 §3.2.4): each a
 * header byte (BFINAL, BTYPE 00), LEN and its complement, then the bytes. They follow a sync
 * flush, which ends byte-aligned, so each header starts a byte. Used for a page's few hundred
 * bytes from its token on: a compressor set up for them cost more than the bytes it saved.
 */
function storedBlocks(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += MAX_STORED_BLOCK) {
    const chunk = bytes.subarray(at, at + MAX_STORED_BLOCK);
    const header = Buffer.alloc(5);
    header[0] = at + MAX_STORED_BLOCK >= bytes.length ? 1 : 0;
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(header, chunk);
  }
  return parts;
}

/** A gzip member's header (RFC 1952): deflate, no name or time, XFL as zlib writes it, Unix. */
function gzipHeader(level: number): Buffer {
  return Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, level === 1 ? 4 : level === 9 ? 2 : 0, 3]);
}

/**
 * The bytes a response was made from, when it is @hono/node-server's lightweight Response made
 * from a byte array (every list page): it keeps `[status, body, headers]` under a symbol named
 * `cache`. Reading them there spares `arrayBuffer()`, which builds a Web Response and copies the
 * 400 kB page twice (its garbage was most of the difference between a gzipped and an identity
 * answer in a server profile). Anything else (another server, another body) gives undefined,
 * and the caller reads the body the standard way.
 */
function bodyBytes(res: Response): Uint8Array<ArrayBuffer> | undefined {
  for (const symbol of Object.getOwnPropertySymbols(res)) {
    if (symbol.description !== 'cache') continue;
    const cache = (res as unknown as Record<symbol, unknown>)[symbol];
    const body = Array.isArray(cache) ? cache[1] : undefined;
    return body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : undefined;
  }
  return undefined;
}

/**
 * Whether a `User-Agent` says its client reads gzip. Google's APIs answer gzip only to a client
 * that says so twice: `Accept-Encoding` asks for it and the user agent contains the string
 * `gzip` (Compute Engine's "Improve performance" guide; googleapis sends
 * `google-api-nodejs-client/8.0.3 (gzip)`, @google-cloud/compute
 * `google-api-nodejs-client/11.3.4`, so only the first is answered gzip). Matched without regard
 * to case: the guide does not say, and an answer either way is one the client can read.
 *
 * @example
 * ```ts
 * userAgentReadsGzip('google-api-nodejs-client/8.0.3 (gzip)'); // true
 * userAgentReadsGzip('google-api-nodejs-client/11.3.4'); // false
 * ```
 */
export function userAgentReadsGzip(userAgent: string | undefined): boolean {
  return userAgent !== undefined && /gzip/i.test(userAgent);
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
