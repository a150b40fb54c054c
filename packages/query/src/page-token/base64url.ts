/** Node's Buffer where there is one (its base64url codec is native), else undefined. */
const NodeBuffer = (
  globalThis as {
    Buffer?: {
      from(bytes: ArrayBufferLike, offset: number, length: number): { toString(e: string): string };
      from(text: string, encoding: 'base64url'): Uint8Array;
    };
  }
).Buffer;

/** Encodes bytes as unpadded base64url (URL-safe, works in browsers and Node). */
export function toBase64Url(bytes: Uint8Array): string {
  if (NodeBuffer) {
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64url');
  }
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes unpadded base64url; undefined unless the text is the canonical encoding of its bytes
 * (so that two different strings never decode to the same token).
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bytes = NodeBuffer
    ? new Uint8Array(NodeBuffer.from(text, 'base64url'))
    : Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  return toBase64Url(bytes) === text ? bytes : undefined;
}
