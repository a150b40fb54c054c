import { describe, expect, it } from 'vitest';
import { EMPTY_LABELS_FINGERPRINT, fingerprintOf, labelFingerprintOf } from './fingerprint.js';

/** FNV-1a 64 in BigInt arithmetic, as the fingerprint was first written: the reference. */
function reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  const bytes: number[] = [];
  for (let i = 7; i >= 0; i--) bytes.push(Number((hash >> BigInt(i * 8)) & 0xffn));
  return btoa(String.fromCharCode(...bytes));
}

describe('fingerprintOf', () => {
  it('gives the 64-bit FNV-1a of the canonical JSON, code unit by code unit', () => {
    const texts = ['', 'a', 'web-1', 'x'.repeat(1000), 'ünïcødé', '\uffff\ud800\u0001', '日本語'];
    for (let seed = 1; seed <= 300; seed++) {
      let text = '';
      for (let i = 0; i < (seed * 7) % 257; i++)
        text += String.fromCharCode((seed * 7919 * (i + 1)) % 0x10000);
      texts.push(text);
    }
    for (const text of texts) expect(fingerprintOf(text)).toBe(reference(JSON.stringify(text)));
  });

  it('sorts keys and leaves out undefined values', () => {
    const rule = { name: 'web', labels: { b: '2', a: '1' }, description: undefined };
    expect(fingerprintOf(rule)).toBe(reference('{"labels":{"a":"1","b":"2"},"name":"web"}'));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
  });

  it('gives an empty label set the constant Compute gives it', () => {
    expect(labelFingerprintOf({})).toBe(EMPTY_LABELS_FINGERPRINT);
    expect(labelFingerprintOf({ env: 'prod' })).toBe(reference('{"env":"prod"}'));
  });
});
