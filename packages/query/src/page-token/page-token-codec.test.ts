import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ListkitError, type ListkitErrorCode } from '../errors.js';
import type { SortKey } from '../order-by/order-by.js';
import type { SortValue } from '../order-by/sort-key.js';
import { type PageTokenBinding, PageTokenCodec } from './page-token-codec.js';

const binding: PageTokenBinding = {
  parent: 'projects/p/regions/r',
  filter: 'name = "web-*"',
  orderBy: 'creationTimestamp desc, name',
  context: { project: 'p', principal: 'alice' },
};

const URL_SAFE = /^[A-Za-z0-9_-]+$/;

/** The ListkitError an async call rejects with (fails the test when it resolves or throws else). */
async function rejection(promise: Promise<unknown>): Promise<ListkitError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ListkitError);
    return e as ListkitError;
  }
  throw new Error('expected a rejection, but the promise resolved');
}

async function codeOf(promise: Promise<unknown>): Promise<ListkitErrorCode> {
  return (await rejection(promise)).code;
}

// Every SortValue shape. Numbers: finite, and not -0 (JSON turns -0 into 0, which compares equal).
const sortValueArb: fc.Arbitrary<SortValue> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 10 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.integer(),
  fc
    .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
    .map((n): SortValue => ({ i: n.toString() })),
  fc
    .tuple(
      fc.integer({ min: -62_135_596_800, max: 253_402_300_799 }),
      fc.integer({ min: 0, max: 999_999_999 }),
    )
    .map(([s, n]): SortValue => [s, n]),
  fc.constant(null),
);
const sortKeyArb: fc.Arbitrary<SortKey> = fc.array(sortValueArb, { maxLength: 5 });

const EVERY_SHAPE: SortKey = [
  'web-9',
  '',
  'ΩMEGA-😀 "quoted" \\ \u0000 \ud800',
  42,
  -1.5e-300,
  Number.MAX_VALUE,
  { i: '9223372036854775807' },
  { i: '-9223372036854775808' },
  { i: '0' },
  [1_704_067_200, 1],
  [-1, 999_999_999],
  null,
];

describe('PageTokenCodec: round trip', () => {
  it('opens what it sealed, for keys of every SortValue shape', async () => {
    const codec = await PageTokenCodec.create();
    const token = await codec.seal(EVERY_SHAPE, binding);
    expect(token).toMatch(URL_SAFE);
    expect(await codec.open(token, binding)).toEqual(EVERY_SHAPE);
  });

  it('opens what it sealed, for random keys', async () => {
    const codec = await PageTokenCodec.create();
    await fc.assert(
      fc.asyncProperty(sortKeyArb, async (key) => {
        const token = await codec.seal(key, binding);
        expect(token).toMatch(URL_SAFE);
        expect(await codec.open(token, binding)).toEqual(key);
      }),
      { numRuns: 200 },
    );
  });

  // Regression: ±Infinity doubles used to be written as JSON null; sort values now tag them.
  it('round-trips infinite doubles (tagged, since JSON has no Infinity)', async () => {
    const codec = await PageTokenCodec.create();
    for (const key of [[{ x: 'Infinity' as const }], [{ x: '-Infinity' as const }, 'a']]) {
      expect(await codec.open(await codec.seal(key, binding), binding)).toEqual(key);
    }
  });

  it('opens with an empty binding and an equal context given in another key order', async () => {
    const codec = await PageTokenCodec.create();
    const plain = await codec.seal(['a'], { filter: '', orderBy: '' });
    expect(await codec.open(plain, { filter: '', orderBy: '' })).toEqual(['a']);
    const withContext = await codec.seal(['a'], { ...binding, context: { a: '1', b: '2' } });
    expect(await codec.open(withContext, { ...binding, context: { b: '2', a: '1' } })).toEqual([
      'a',
    ]);
  });

  it('seals the same cursor into different tokens (random IV)', async () => {
    const codec = await PageTokenCodec.create();
    const a = await codec.seal(['x'], binding);
    const b = await codec.seal(['x'], binding);
    expect(a).not.toBe(b);
  });
});

describe('PageTokenCodec: corrupted tokens', () => {
  let codec: PageTokenCodec;
  let token: string;
  beforeAll(async () => {
    codec = await PageTokenCodec.create();
    token = await codec.seal(EVERY_SHAPE, binding);
  });

  it('rejects every single-bit flip of every character', async () => {
    const seen = new Set<string>();
    const codes = new Map<ListkitErrorCode, number>();
    for (let i = 0; i < token.length; i++) {
      const code = token.charCodeAt(i);
      for (let bit = 0; bit < 16; bit++) {
        const flipped =
          token.slice(0, i) + String.fromCharCode(code ^ (1 << bit)) + token.slice(i + 1);
        if (flipped === token || seen.has(flipped)) continue;
        seen.add(flipped);
        const error = await rejection(codec.open(flipped, binding));
        expect(['malformed_page_token', 'tampered_page_token'], `${i}:${bit}`).toContain(
          error.code,
        );
        codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
      }
    }
    expect(seen.size).toBe(token.length * 16);
    // Both kinds occur: flips to non-alphabet characters, and flips to other valid characters.
    expect(codes.get('malformed_page_token')).toBeGreaterThan(0);
    expect(codes.get('tampered_page_token')).toBeGreaterThan(0);
  });

  it('rejects every truncation, down to the empty string', async () => {
    for (let n = 0; n < token.length; n++) {
      const code = await codeOf(codec.open(token.slice(0, n), binding));
      expect(['malformed_page_token', 'tampered_page_token'], `prefix ${n}`).toContain(code);
    }
    expect(await codeOf(codec.open('', binding))).toBe('malformed_page_token');
  });

  it('rejects tokens with characters appended', async () => {
    for (const extra of ['A', 'AA', 'AAA', 'AAAA', '-', '=', '==', '.', ' ']) {
      const code = await codeOf(codec.open(token + extra, binding));
      expect(['malformed_page_token', 'tampered_page_token'], extra).toContain(code);
    }
  });

  it('rejects random strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200, size: 'max' }), async (junk) => {
        const code = await codeOf(codec.open(junk, binding));
        expect(['malformed_page_token', 'tampered_page_token']).toContain(code);
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same message for every tampered token, whatever the cause', async () => {
    const other = await PageTokenCodec.create();
    const messages = new Set<string>();
    const record = async (t: string) => {
      const error = await rejection(codec.open(t, binding));
      if (error.code === 'tampered_page_token') messages.add(error.message);
    };
    // a foreign key, a flipped ciphertext byte, a flipped tag byte, a flipped IV byte, a cut tag
    await record(await other.seal(EVERY_SHAPE, binding));
    const flip = (at: number) => {
      const c = token[at] === 'A' ? 'B' : 'A';
      return token.slice(0, at) + c + token.slice(at + 1);
    };
    for (const at of [4, 20, Math.floor(token.length / 2), token.length - 4])
      await record(flip(at));
    for (const cut of [4, 8, 12]) await record(token.slice(0, token.length - cut));
    expect(messages.size).toBe(1);
  });
});

describe('PageTokenCodec: authentic tokens with a bad payload', () => {
  const SECRET = 'a configured secret of 16+ bytes';
  const encoder = new TextEncoder();

  /** Seals any plaintext as the codec would (documented layout), with the same secret. */
  async function craft(plaintext: string): Promise<string> {
    const base = await crypto.subtle.importKey('raw', encoder.encode(SECRET), 'HKDF', false, [
      'deriveKey',
    ]);
    const key = await crypto.subtle.deriveKey(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: encoder.encode('listkit page token v1'),
        info: new Uint8Array(),
      },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt'],
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: new Uint8Array([1]) },
        key,
        encoder.encode(plaintext),
      ),
    );
    const bytes = [1, ...iv, ...sealed];
    return btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  }

  let codec: PageTokenCodec;
  beforeAll(async () => {
    codec = await PageTokenCodec.create({ secrets: [SECRET] });
  });

  it('gets past decryption with a crafted token (the helper matches the format)', async () => {
    const token = await craft('{"q":"not the digest","k":["x"],"t":0}');
    expect(await codeOf(codec.open(token, binding))).toBe('page_token_query_mismatch');
  });

  it.each([
    'not json',
    '  ',
    'null',
    '[]',
    '{}',
    '{"q":"x","t":0}',
    '{"q":"x","k":[],"t":"0"}',
    '{"q":1,"k":[],"t":0}',
    '{"q":"x","k":{},"t":0}',
    '{"q":"x","k":[true],"t":0}',
    '{"q":"x","k":[{"i":"abc"}],"t":0}',
    '{"q":"x","k":[{"i":"12345678901234567890"}],"t":0}',
    '{"q":"x","k":[{"i":"1","j":"2"}],"t":0}',
    '{"q":"x","k":[[1.5,2]],"t":0}',
    '{"q":"x","k":[[1]],"t":0}',
    '{"q":"x","k":[["1",2]],"t":0}',
    '{"q":"x","k":[1e400],"t":0}',
    '{"q":"x","k":[["x"]],"t":0}',
  ])('rejects payload %j as tampered, with the usual message', async (payload) => {
    const error = await rejection(codec.open(await craft(payload), binding));
    expect(error.code).toBe('tampered_page_token');
    const other = await PageTokenCodec.create();
    const foreign = await rejection(other.open(await craft(payload), binding));
    expect(error.message).toBe(foreign.message);
  });
});

describe('PageTokenCodec: binding', () => {
  let codec: PageTokenCodec;
  let token: string;
  beforeAll(async () => {
    codec = await PageTokenCodec.create();
    token = await codec.seal(['web-9'], binding);
  });

  it.each<[string, PageTokenBinding]>([
    ['filter', { ...binding, filter: 'name = "api-*"' }],
    ['filter (empty)', { ...binding, filter: '' }],
    ['orderBy', { ...binding, orderBy: 'name' }],
    ['orderBy (default)', { ...binding, orderBy: '' }],
    ['parent', { ...binding, parent: 'projects/p/regions/s' }],
    ['parent (absent)', { ...binding, parent: undefined }],
    ['context value', { ...binding, context: { project: 'p', principal: 'bob' } }],
    ['context key', { ...binding, context: { project: 'p', principal2: 'alice' } }],
    ['context entry added', { ...binding, context: { ...binding.context, extra: '' } }],
    ['context (absent)', { ...binding, context: undefined }],
  ])('rejects a token opened with another %s', async (_, other) => {
    expect(await codeOf(codec.open(token, other))).toBe('page_token_query_mismatch');
  });

  it('does not confuse fields whose texts run together', async () => {
    const a = await codec.seal(['x'], { parent: 'a', filter: 'b c', orderBy: '' });
    expect(await codeOf(codec.open(a, { parent: 'a b', filter: 'c', orderBy: '' }))).toBe(
      'page_token_query_mismatch',
    );
    expect(await codeOf(codec.open(a, { parent: 'a', filter: 'b', orderBy: 'c' }))).toBe(
      'page_token_query_mismatch',
    );
  });
});

describe('PageTokenCodec: secrets', () => {
  const OLD = 'old secret, at least 16 bytes long';
  const NEW = new TextEncoder().encode('new secret, 32 bytes long.......');

  it('rejects tokens of a codec with another random secret as tampered', async () => {
    const a = await PageTokenCodec.create();
    const b = await PageTokenCodec.create();
    const token = await a.seal(['x'], binding);
    expect(await codeOf(b.open(token, binding))).toBe('tampered_page_token');
  });

  it('accepts tokens of another codec with the same configured secret', async () => {
    const a = await PageTokenCodec.create({ secrets: [OLD] });
    const b = await PageTokenCodec.create({ secrets: [OLD] });
    expect(await b.open(await a.seal(['x', 1], binding), binding)).toEqual(['x', 1]);
    expect(await a.open(await b.seal(['y', 2], binding), binding)).toEqual(['y', 2]);
  });

  it('rotates keys: [new, old] opens tokens sealed with [old]; [new] alone does not', async () => {
    const before = await PageTokenCodec.create({ secrets: [OLD] });
    const during = await PageTokenCodec.create({ secrets: [NEW, OLD] });
    const after = await PageTokenCodec.create({ secrets: [NEW] });
    const old = await before.seal(['x'], binding);
    expect(await during.open(old, binding)).toEqual(['x']);
    expect(await codeOf(after.open(old, binding))).toBe('tampered_page_token');
    // New tokens are sealed with the first secret: the codec with only the old one rejects them.
    const fresh = await during.seal(['y'], binding);
    expect(await after.open(fresh, binding)).toEqual(['y']);
    expect(await codeOf(before.open(fresh, binding))).toBe('tampered_page_token');
  });

  it('refuses short secrets', async () => {
    await expect(PageTokenCodec.create({ secrets: ['short'] })).rejects.toThrow(TypeError);
  });
});

describe('PageTokenCodec: expiry', () => {
  const T0 = 1_700_000_000_000;

  async function clocked(ttlMs?: number | null) {
    let now = T0;
    const codec = await PageTokenCodec.create({
      secrets: ['expiry test secret, 16+ bytes'],
      ...(ttlMs === undefined ? {} : { ttlMs }),
      now: () => now,
    });
    const token = await codec.seal(['x'], binding);
    return {
      codec,
      token,
      at(t: number) {
        now = t;
      },
    };
  }

  it('opens just before the ttl and expires just after', async () => {
    const ttl = 60_000;
    const { codec, token, at } = await clocked(ttl);
    at(T0 + ttl - 1);
    expect(await codec.open(token, binding)).toEqual(['x']);
    at(T0 + ttl + 1);
    expect(await codeOf(codec.open(token, binding))).toBe('expired_page_token');
  });

  it('defaults to three days', async () => {
    const threeDays = 3 * 24 * 60 * 60 * 1000;
    const { codec, token, at } = await clocked();
    at(T0 + threeDays - 1);
    expect(await codec.open(token, binding)).toEqual(['x']);
    at(T0 + threeDays + 1);
    expect(await codeOf(codec.open(token, binding))).toBe('expired_page_token');
  });

  it('never expires with ttlMs: null', async () => {
    const { codec, token, at } = await clocked(null);
    at(T0 + 100 * 365 * 24 * 60 * 60 * 1000);
    expect(await codec.open(token, binding)).toEqual(['x']);
  });

  it('checks the query before the age (a stale token of another query: mismatch)', async () => {
    const { codec, token, at } = await clocked(1000);
    at(T0 + 5000);
    expect(await codeOf(codec.open(token, { ...binding, filter: 'x' }))).toBe(
      'page_token_query_mismatch',
    );
  });
});

describe('a bound query', () => {
  it('opens tokens sealed with the plain binding and the other way round', async () => {
    const codec = await PageTokenCodec.create();
    const query = await codec.bindQuery(binding);
    expect(await codec.open(await codec.seal(['a'], binding), query)).toEqual(['a']);
    expect(await codec.open(await codec.seal(['b'], query), binding)).toEqual(['b']);
    const other = await codec.bindQuery({ ...binding, filter: 'name = "x"' });
    expect(await codeOf(codec.open(await codec.seal(['c'], query), other))).toBe(
      'page_token_query_mismatch',
    );
  });

  it('reads the binding once for an open and a seal', async () => {
    const codec = await PageTokenCodec.create();
    let reads = 0;
    const counted: PageTokenBinding = {
      ...binding,
      get filter() {
        reads++;
        return binding.filter;
      },
    };
    const query = await codec.bindQuery(counted);
    await codec.open(await codec.seal(['a'], query), query);
    expect(reads).toBe(1);
  });
});
