// The primitives page tokens need, AES-256-GCM, SHA-256 and random IVs, in the fastest form the
// platform offers. Web Crypto (browsers, and Node) is asynchronous: every call is a round trip
// through Node's thread pool, 0.1-0.3 ms of latency for a few dozen bytes. Where Node's own
// `node:crypto` is reachable (`process.getBuiltinModule`, Node >= 20.16), the same algorithms run
// synchronously in microseconds; the keys (HKDF-SHA-256 of each secret) and the bytes produced
// are the same, so a token sealed either way opens either way. What a token costs there is
// mostly per call, not per byte (docs/decisions/0090): the keys are held as KeyObjects, and
// IVs are cut from a block of random bytes drawn 256 IVs at a time.

/** The part of `node:crypto` used here (the package has no Node types: it also runs in browsers). */
interface NodeCrypto {
  hkdfSync(
    digest: 'sha256',
    key: Uint8Array,
    salt: Uint8Array,
    info: Uint8Array,
    length: number,
  ): ArrayBuffer;
  createSecretKey(key: Uint8Array): NodeKey;
  createCipheriv(algorithm: 'aes-256-gcm', key: NodeKey, iv: Uint8Array): NodeCipher;
  createDecipheriv(algorithm: 'aes-256-gcm', key: NodeKey, iv: Uint8Array): NodeDecipher;
  createHash(algorithm: 'sha256'): { update(data: string): { digest(): Uint8Array } };
  randomFillSync<T extends Uint8Array>(buffer: T): T;
}
/** A `node:crypto` KeyObject: the key imported once, not from raw bytes on every token. */
type NodeKey = object;
interface NodeCipher {
  setAAD(aad: Uint8Array): void;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
  getAuthTag(): Uint8Array;
}
interface NodeDecipher {
  setAAD(aad: Uint8Array): void;
  setAuthTag(tag: Uint8Array): void;
  update(data: Uint8Array): Uint8Array;
  final(): Uint8Array;
}

// Looked up at the first token, not when the package loads: `node:crypto` costs a command-line
// program's start-up several milliseconds, and most runs never page.
let nodeCryptoModule: NodeCrypto | null | undefined;
function nodeCrypto(): NodeCrypto | undefined {
  nodeCryptoModule ??=
    ((
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined) ?? null;
  return nodeCryptoModule ?? undefined;
}

const TAG_BYTES = 16;
const KEY_SALT = new TextEncoder().encode('listkit page token v1');
const encoder = new TextEncoder();

/**
 * AES-256-GCM keys derived from the codec's secrets, newest first. Synchronous where
 * `node:crypto` is (a page seals its token without waiting), a promise with Web Crypto.
 */
export interface TokenCipher {
  /** `ciphertext ‖ tag` of `plain` under the newest key. */
  encrypt(iv: Uint8Array, plain: Uint8Array, aad: Uint8Array): Uint8Array | Promise<Uint8Array>;
  /** The plaintext under the first key that authenticates, or undefined when none does. */
  decrypt(
    iv: Uint8Array,
    sealed: Uint8Array,
    aad: Uint8Array,
  ): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

/** Derives the keys (HKDF-SHA-256, salt `listkit page token v1`) and returns the cipher. */
export async function tokenCipher(secrets: readonly Uint8Array[]): Promise<TokenCipher> {
  const node = nodeCrypto();
  if (node) {
    const keys = secrets.map((secret) =>
      node.createSecretKey(
        new Uint8Array(node.hkdfSync('sha256', secret, KEY_SALT, new Uint8Array(), 32)),
      ),
    );
    return {
      encrypt: (iv, plain, aad) => {
        const cipher = node.createCipheriv('aes-256-gcm', keys[0]!, iv);
        cipher.setAAD(aad);
        return concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      },
      decrypt: (iv, sealed, aad) => {
        if (sealed.length < TAG_BYTES) return undefined;
        const body = sealed.subarray(0, sealed.length - TAG_BYTES);
        const tag = sealed.subarray(sealed.length - TAG_BYTES);
        for (const key of keys) {
          try {
            const decipher = node.createDecipheriv('aes-256-gcm', key, iv);
            decipher.setAAD(aad);
            decipher.setAuthTag(tag);
            return concat([decipher.update(body), decipher.final()]);
          } catch {
            // Try the next (older) key; the failure itself reveals nothing.
          }
        }
        return undefined;
      },
    };
  }
  const keys = await Promise.all(secrets.map(deriveWebKey));
  return {
    encrypt: async (iv, plain, aad) =>
      new Uint8Array(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource },
          keys[0]!,
          plain as BufferSource,
        ),
      ),
    decrypt: async (iv, sealed, aad) => {
      for (const key of keys) {
        try {
          return new Uint8Array(
            await crypto.subtle.decrypt(
              { name: 'AES-GCM', iv: iv as BufferSource, additionalData: aad as BufferSource },
              key,
              sealed as BufferSource,
            ),
          );
        } catch {
          // Try the next (older) key; the failure itself reveals nothing.
        }
      }
      return undefined;
    },
  };
}

const IV_BYTES = 12;
/** IVs drawn from the random source at once (3 KiB): one call per 256 tokens, not per token. */
const IVS_PER_DRAW = 256;
let ivBlock = new Uint8Array(0);
let ivUsed = 0;

/**
 * A fresh 96-bit AES-GCM IV: the next unused 12 bytes of a block of cryptographically random
 * bytes (`randomFillSync`, or `crypto.getRandomValues` without node:crypto), each handed out
 * once. The same random IVs as one draw per token, at a fraction of the per-call cost.
 */
export function randomIv(): Uint8Array {
  if (ivUsed + IV_BYTES > ivBlock.length) {
    const block = new Uint8Array(IV_BYTES * IVS_PER_DRAW);
    const node = nodeCrypto();
    ivBlock = node ? node.randomFillSync(block) : crypto.getRandomValues(block);
    ivUsed = 0;
  }
  ivUsed += IV_BYTES;
  return ivBlock.subarray(ivUsed - IV_BYTES, ivUsed);
}

/** SHA-256 of a string's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  const node = nodeCrypto();
  if (node) return new Uint8Array(node.createHash('sha256').update(text).digest());
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

async function deriveWebKey(material: Uint8Array): Promise<CryptoKey> {
  // HKDF turns any secret (a passphrase, random bytes) into a uniform AES-256 key.
  const base = await crypto.subtle.importKey('raw', material as BufferSource, 'HKDF', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: KEY_SALT, info: new Uint8Array() },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
