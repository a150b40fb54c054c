import { describe, expect, it, vi } from 'vitest';
import { fromBase64Url, toBase64Url } from './base64url.js';
import { PageTokenCodec } from './page-token-codec.js';

// In Node the codec seals with node:crypto; browsers (and earlier versions of the codec) use Web
// Crypto. These tests build and read tokens with Web Crypto alone, by the documented layout
// (version ‖ IV ‖ AES-256-GCM(payload) ‖ tag, key = HKDF-SHA-256 of the secret), so both
// directions must agree byte for byte.

const SECRET = 'a page-token secret of some length';
const binding = {
  parent: 'projects/p/regions/r',
  filter: '',
  orderBy: '',
  context: { project: 'p' },
};

async function webKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    'HKDF',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new TextEncoder().encode('listkit page token v1'),
      info: new Uint8Array(),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

async function bindingDigest(): Promise<string> {
  const canonical = JSON.stringify([binding.parent, '', '', [['project', 'p']]]);
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return toBase64Url(new Uint8Array(hash));
}

describe('page tokens and Web Crypto', () => {
  it('opens a token sealed with Web Crypto', async () => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const payload = JSON.stringify({ q: await bindingDigest(), k: ['web-7'], t: Date.now() });
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: new Uint8Array([1]) },
        await webKey(SECRET),
        new TextEncoder().encode(payload),
      ),
    );
    const token = toBase64Url(new Uint8Array([1, ...iv, ...sealed]));
    const codec = await PageTokenCodec.create({ secrets: [SECRET] });
    expect(await codec.open(token, binding)).toEqual(['web-7']);
  });

  it('seals tokens that Web Crypto opens', async () => {
    const codec = await PageTokenCodec.create({ secrets: [SECRET] });
    const bytes = fromBase64Url(await codec.seal(['web-7', 3], binding))!;
    expect(bytes[0]).toBe(1);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.subarray(1, 13), additionalData: new Uint8Array([1]) },
      await webKey(SECRET),
      bytes.subarray(13),
    );
    const payload = JSON.parse(new TextDecoder().decode(plain));
    expect(payload).toMatchObject({ q: await bindingDigest(), k: ['web-7', 3] });
  });

  it('opens with an older secret after rotation, and refuses a token of an unknown secret', async () => {
    const old = await PageTokenCodec.create({ secrets: [SECRET] });
    const token = await old.seal(['a'], binding);
    const rotated = await PageTokenCodec.create({
      secrets: ['the newer secret, also long', SECRET],
    });
    expect(await rotated.open(token, binding)).toEqual(['a']);
    const other = await PageTokenCodec.create({ secrets: ['an unrelated secret entirely'] });
    await expect(other.open(token, binding)).rejects.toMatchObject({ code: 'tampered_page_token' });
  });

  it('seals and opens the same tokens where neither node:crypto nor Buffer is (browsers)', async () => {
    // A fresh copy of the codec's modules, loaded while `process.getBuiltinModule` and `Buffer`
    // are missing: the Web Crypto and btoa/atob paths, as the playground runs them.
    const nodeProcess = (globalThis as { process?: object }).process;
    vi.resetModules();
    vi.stubGlobal('Buffer', undefined);
    vi.stubGlobal('process', { ...nodeProcess, getBuiltinModule: undefined });
    let browser: PageTokenCodec;
    try {
      const fresh = await import('./page-token-codec.js');
      browser = await fresh.PageTokenCodec.create({ secrets: [SECRET] });
      const sealed = await browser.seal(['web-7', 2], binding);
      vi.unstubAllGlobals();
      const node = await PageTokenCodec.create({ secrets: [SECRET] });
      expect(await node.open(sealed, binding)).toEqual(['web-7', 2]);
      const back = await node.seal(['web-8'], binding);
      vi.stubGlobal('Buffer', undefined);
      vi.stubGlobal('process', { ...nodeProcess, getBuiltinModule: undefined });
      expect(await browser.open(back, binding)).toEqual(['web-8']);
      await expect(browser.open(`${back.slice(0, -2)}AA`, binding)).rejects.toMatchObject({
        code: 'tampered_page_token',
      });
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
