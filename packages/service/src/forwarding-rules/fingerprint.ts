/** The labelFingerprint Compute Engine gives an empty label set (a constant). */
export const EMPTY_LABELS_FINGERPRINT = '42WmSpB8rSM=';

/**
 * An 8-byte base64 fingerprint of a JSON value (keys sorted), shaped like Compute Engine's. It
 * changes whenever the content changes. FNV-1a (64-bit) keeps it synchronous, so a write and
 * its fingerprint happen in one step with no other request in between.
 */
export function fingerprintOf(value: unknown): string {
  const text = canonicalJson(value);
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  const bytes: number[] = [];
  for (let i = 7; i >= 0; i--) bytes.push(Number((hash >> BigInt(i * 8)) & 0xffn));
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
