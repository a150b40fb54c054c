import { ListkitError, type ListkitErrorCode } from '../errors.js';
import type { SortKey } from '../order-by/order-by.js';
import { isSortValue } from '../order-by/sort-key.js';
import { fromBase64Url, toBase64Url } from './base64url.js';
import { randomIv, sha256, type TokenCipher, tokenCipher } from './token-crypto.js';

/**
 * What a page token is bound to: a token only opens for the same query.
 *
 * @example
 * ```ts
 * const binding: PageTokenBinding = { parent: 'projects/p/regions/r', filter: compiled.canonical, orderBy: order.canonical };
 * const token = await codec.seal(order.sortKey(last), binding);
 * ```
 */
export interface PageTokenBinding {
  /** The collection listed, such as `projects/p/regions/r`. */
  parent?: string;
  /** The canonical filter (`CompiledFilter.canonical`). */
  filter: string;
  /** The canonical orderBy (`OrderBy.canonical`). */
  orderBy: string;
  /** Anything else the caller binds tokens to, such as the project or principal. */
  context?: Readonly<Record<string, string>>;
}

/**
 * A {@link PageTokenBinding} with its digest computed ({@link PageTokenCodec.bindQuery}): a page that
 * opens one token and seals the next binds its query once, not once per token.
 *
 * @example
 * ```ts
 * const query: BoundPageQuery = await codec.bindQuery(binding);
 * const cursor = await codec.open(pageToken, query);
 * ```
 */
export class BoundPageQuery {
  /** @internal Built by {@link PageTokenCodec.bindQuery} only. */
  constructor(
    /** The SHA-256 of the canonical binding, base64url: what tokens carry. */
    readonly digest: string,
  ) {}
}

/**
 * Options of {@link PageTokenCodec.create}.
 *
 * @example
 * ```ts
 * const codec = await PageTokenCodec.create({ secrets: [newSecret, oldSecret], ttlMs: 60 * 60 * 1000 });
 * ```
 */
export interface PageTokenCodecOptions {
  /**
   * Secrets, newest first: tokens are sealed with the first and opened with any (key rotation).
   * Processes that must accept each other's tokens share them. Default: one random secret per
   * codec, so tokens do not survive a restart.
   */
  secrets?: readonly (string | Uint8Array)[];
  /** Lifetime of a token in milliseconds; `null` for none. Default: 3 days, as AIP-158 suggests. */
  ttlMs?: number | null;
  /** The clock, in milliseconds since the epoch. Default: `Date.now`. */
  now?: () => number;
}

const VERSION = 1;
const IV_BYTES = 12; // randomIv()'s
const TAG_BYTES = 16;
const THREE_DAYS = 3 * 24 * 60 * 60 * 1000;
const AAD = new Uint8Array([VERSION]);
/** Bindings whose digest is remembered (a client pages through one query many times). */
const DIGEST_CACHE_SIZE = 256;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Payload {
  /** Digest of the binding. */
  q: string;
  /** The sort key of the last item returned. */
  k: SortKey;
  /** Issued at, in milliseconds since the epoch. */
  t: number;
}

/**
 * Seals keyset cursors into opaque, URL-safe page tokens: AES-256-GCM, bound to the query,
 * optionally expiring. In Node the cipher runs synchronously through `node:crypto` (no thread-pool
 * round trip per page); elsewhere, such as in browsers, through Web Crypto. Both produce and accept
 * the same tokens.
 *
 * Token layout: `version (1 byte) ‖ IV (12) ‖ AES-GCM(payload) ‖ tag (16)`, base64url. The
 * payload is JSON `{q, k, t}`: the binding's SHA-256, the cursor, and the issue time.
 *
 * @example
 * ```ts
 * const codec = await PageTokenCodec.create({ secrets: [process.env.LISTKIT_PAGE_TOKEN_SECRET!] });
 * const token = await codec.seal(['web-9'], { filter: '', orderBy: '' });
 * await codec.open(token, { filter: '', orderBy: '' }); // ['web-9']
 * ```
 */
export class PageTokenCodec {
  /** The digests of recent bindings, oldest first; at most {@link DIGEST_CACHE_SIZE}. */
  private readonly digests = new Map<string, string>();

  private constructor(
    private readonly cipher: TokenCipher,
    private readonly ttlMs: number | null,
    private readonly now: () => number,
  ) {}

  static async create(options: PageTokenCodecOptions = {}): Promise<PageTokenCodec> {
    const secrets = options.secrets?.length
      ? options.secrets
      : [crypto.getRandomValues(new Uint8Array(32))];
    const material = secrets.map((secret) =>
      typeof secret === 'string' ? encoder.encode(secret) : secret,
    );
    if (material.some((bytes) => bytes.length < 16)) {
      throw new TypeError('a page-token secret must have at least 16 bytes');
    }
    return new PageTokenCodec(
      await tokenCipher(material),
      options.ttlMs === undefined ? THREE_DAYS : options.ttlMs,
      options.now ?? Date.now,
    );
  }

  /**
   * Computes a binding's digest once, for the {@link open} and {@link seal} of one page.
   *
   * @example
   * ```ts
   * const query = await codec.bindQuery({ parent: 'projects/p/regions/r', filter: '', orderBy: '' });
   * const cursor = request.pageToken ? await codec.open(request.pageToken, query) : undefined;
   * // … read the page after the cursor …
   * const nextPageToken = await codec.seal(lastKey, query);
   * ```
   */
  async bindQuery(binding: PageTokenBinding): Promise<BoundPageQuery> {
    return new BoundPageQuery(await this.digest(binding));
  }

  /** Seals a cursor for the query described by `binding` (or bound by {@link bindQuery}). */
  async seal(cursor: SortKey, binding: PageTokenBinding | BoundPageQuery): Promise<string> {
    const q = binding instanceof BoundPageQuery ? binding.digest : await this.digest(binding);
    const payload: Payload = { q, k: cursor, t: this.now() };
    const iv = randomIv();
    // Synchronous with node:crypto: a page's token is sealed without waiting for a turn.
    const encrypted = this.cipher.encrypt(iv, encoder.encode(JSON.stringify(payload)), AAD);
    const sealed = encrypted instanceof Uint8Array ? encrypted : await encrypted;
    const token = new Uint8Array(1 + IV_BYTES + sealed.length);
    token[0] = VERSION;
    token.set(iv, 1);
    token.set(sealed, 1 + IV_BYTES);
    return toBase64Url(token);
  }

  /**
   * Opens a token for the query described by `binding` (or bound by {@link bindQuery}) and returns
   * its cursor. Throws a
   * {@link ListkitError} (`malformed_page_token`, `tampered_page_token`,
   * `page_token_query_mismatch` or `expired_page_token`); the reason a decryption failed is
   * never disclosed.
   */
  async open(token: string, binding: PageTokenBinding | BoundPageQuery): Promise<SortKey> {
    const fail: (code: ListkitErrorCode, message: string) => never = (code, message) => {
      throw ListkitError.of(
        'pageToken',
        code,
        message,
        { start: 0, end: String(token).length },
        String(token),
      );
    };
    const bytes = typeof token === 'string' ? fromBase64Url(token) : undefined;
    if (!bytes || bytes.length < 1 + IV_BYTES + TAG_BYTES + 2)
      fail('malformed_page_token', 'the page token is malformed');
    if (bytes[0] !== VERSION)
      fail('malformed_page_token', 'the page token is malformed (unknown version)');
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const sealed = bytes.subarray(1 + IV_BYTES);
    const decrypted = this.cipher.decrypt(iv, sealed, AAD);
    const plain = decrypted instanceof Promise ? await decrypted : decrypted;
    if (!plain) return fail('tampered_page_token', 'the page token is invalid');
    const payload = parsePayload(decoder.decode(plain));
    if (!payload) return fail('tampered_page_token', 'the page token is invalid');
    const digest = binding instanceof BoundPageQuery ? binding.digest : await this.digest(binding);
    if (payload.q !== digest) {
      fail(
        'page_token_query_mismatch',
        'the page token belongs to a different query: filter, orderBy and parent must stay the same while paging',
      );
    }
    if (this.ttlMs !== null && this.now() - payload.t > this.ttlMs) {
      fail('expired_page_token', 'the page token has expired; start the listing again');
    }
    return payload.k;
  }

  /** The SHA-256 of the binding, base64url; remembered for the most recent bindings. */
  private async digest(binding: PageTokenBinding): Promise<string> {
    const canonical = canonicalBinding(binding);
    let digest = this.digests.get(canonical);
    if (digest === undefined) {
      digest = toBase64Url(await sha256(canonical));
      if (this.digests.size >= DIGEST_CACHE_SIZE) {
        this.digests.delete(this.digests.keys().next().value!);
      }
      this.digests.set(canonical, digest);
    }
    return digest;
  }
}

function parsePayload(text: string): Payload | undefined {
  try {
    const p = JSON.parse(text) as Partial<Payload>;
    const ok =
      typeof p.q === 'string' &&
      typeof p.t === 'number' &&
      Array.isArray(p.k) &&
      p.k.every(isSortValue);
    return ok ? (p as Payload) : undefined;
  } catch {
    return undefined;
  }
}

/** The binding in one canonical text: context entries sorted by key. */
function canonicalBinding(binding: PageTokenBinding): string {
  const context = Object.entries(binding.context ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return JSON.stringify([binding.parent ?? '', binding.filter, binding.orderBy, context]);
}
