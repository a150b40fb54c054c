import { ListkitError, type ListkitErrorCode } from '../errors.js';
import type { SortKey } from '../order-by/order-by.js';
import { isSortValue } from '../order-by/sort-key.js';
import { fromBase64Url, toBase64Url } from './base64url.js';

/** What a page token is bound to: a token only opens for the same query. */
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

/** Options of {@link PageTokenCodec.create}. */
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
const IV_BYTES = 12;
const TAG_BYTES = 16;
const THREE_DAYS = 3 * 24 * 60 * 60 * 1000;
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
 * Seals keyset cursors into opaque, URL-safe page tokens: AES-256-GCM through Web Crypto
 * (so browsers can use it too), bound to the query, optionally expiring.
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
  private constructor(
    private readonly keys: CryptoKey[],
    private readonly ttlMs: number | null,
    private readonly now: () => number,
  ) {}

  static async create(options: PageTokenCodecOptions = {}): Promise<PageTokenCodec> {
    const secrets = options.secrets?.length
      ? options.secrets
      : [crypto.getRandomValues(new Uint8Array(32))];
    const keys = await Promise.all(secrets.map(deriveKey));
    return new PageTokenCodec(
      keys,
      options.ttlMs === undefined ? THREE_DAYS : options.ttlMs,
      options.now ?? Date.now,
    );
  }

  /** Seals a cursor for the query described by `binding`. */
  async seal(cursor: SortKey, binding: PageTokenBinding): Promise<string> {
    const payload: Payload = { q: await digest(binding), k: cursor, t: this.now() };
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: new Uint8Array([VERSION]) },
        this.keys[0]!,
        encoder.encode(JSON.stringify(payload)),
      ),
    );
    const token = new Uint8Array(1 + IV_BYTES + sealed.length);
    token[0] = VERSION;
    token.set(iv, 1);
    token.set(sealed, 1 + IV_BYTES);
    return toBase64Url(token);
  }

  /**
   * Opens a token for the query described by `binding` and returns its cursor. Throws a
   * {@link ListkitError} (`malformed_page_token`, `tampered_page_token`,
   * `page_token_query_mismatch` or `expired_page_token`); the reason a decryption failed is
   * never disclosed.
   */
  async open(token: string, binding: PageTokenBinding): Promise<SortKey> {
    const fail: (code: ListkitErrorCode, message: string) => never = (code, message) => {
      throw ListkitError.of(code, message, { start: 0, end: String(token).length }, String(token));
    };
    const bytes = typeof token === 'string' ? fromBase64Url(token) : undefined;
    if (!bytes || bytes.length < 1 + IV_BYTES + TAG_BYTES + 2)
      fail('malformed_page_token', 'the page token is malformed');
    if (bytes[0] !== VERSION)
      fail('malformed_page_token', 'the page token is malformed (unknown version)');
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const sealed = bytes.subarray(1 + IV_BYTES);
    let plain: ArrayBuffer | undefined;
    for (const key of this.keys) {
      try {
        plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv, additionalData: new Uint8Array([VERSION]) },
          key,
          sealed,
        );
        break;
      } catch {
        // Try the next (older) key; the failure itself reveals nothing.
      }
    }
    if (!plain) return fail('tampered_page_token', 'the page token is invalid');
    const payload = parsePayload(decoder.decode(plain));
    if (!payload) return fail('tampered_page_token', 'the page token is invalid');
    if (payload.q !== (await digest(binding))) {
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

async function deriveKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const material = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (material.length < 16) throw new TypeError('a page-token secret must have at least 16 bytes');
  // HKDF turns any secret (a passphrase, random bytes) into a uniform AES-256 key.
  const base = await crypto.subtle.importKey('raw', material as BufferSource, 'HKDF', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: encoder.encode('listkit page token v1'),
      info: new Uint8Array(),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function digest(binding: PageTokenBinding): Promise<string> {
  const context = Object.entries(binding.context ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const canonical = JSON.stringify([
    binding.parent ?? '',
    binding.filter,
    binding.orderBy,
    context,
  ]);
  const hash = await crypto.subtle.digest('SHA-256', encoder.encode(canonical));
  return toBase64Url(new Uint8Array(hash));
}
