/** The labelFingerprint Compute Engine gives an empty label set (a constant). */
export const EMPTY_LABELS_FINGERPRINT = '42WmSpB8rSM=';

/**
 * An 8-byte base64 fingerprint of a JSON value (keys sorted), shaped like Compute Engine's. It
 * changes whenever the content changes. FNV-1a (64-bit) keeps it synchronous, so a write and
 * its fingerprint happen in one step with no other request in between.
 */
export function fingerprintOf(value: unknown): string {
  return fnv1a64Base64(canonicalJson(value));
}

/**
 * FNV-1a over the text's UTF-16 code units, 64 bits kept as two 32-bit halves in integer
 * arithmetic: the same value as BigInt arithmetic, without a BigInt allocated per character (a
 * rule's ~800 characters cost 0.11 ms per insert that way; BENCHMARKS.md "Inserts", branch
 * `stores`). The prime is 2^40 + 0x1b3, so `h * prime` is `h * 0x1b3` plus the low half shifted
 * 8 bits into the high one; `carry` is the part of `lo * 0x1b3` above 32 bits.
 */
function fnv1a64Base64(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < text.length; i++) {
    lo = (lo ^ text.charCodeAt(i)) >>> 0;
    const carry = ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
    hi = (Math.imul(hi, 0x1b3) + carry + (lo << 8)) >>> 0;
    lo = Math.imul(lo, 0x1b3) >>> 0;
  }
  const bytes = [hi >>> 24, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff];
  bytes.push(lo >>> 24, (lo >>> 16) & 0xff, (lo >>> 8) & 0xff, lo & 0xff);
  return btoa(String.fromCharCode(...bytes));
}

/** The labelFingerprint of a label set. */
export function labelFingerprintOf(labels: Readonly<Record<string, string>> | undefined): string {
  if (!labels || Object.keys(labels).length === 0) return EMPTY_LABELS_FINGERPRINT;
  return fingerprintOf(labels);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
