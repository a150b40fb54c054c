/**
 * Random bytes for ids, drawn from the platform's CSPRNG 4 KB at a time: one
 * `crypto.getRandomValues` call costs about 3 µs, and an insert needs five small draws (the
 * rule's id, the operation's id and its name's three parts).
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function randomBytes(count: number): Uint8Array {
  if (used + count > POOL_BYTES) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  const bytes = pool.slice(used, used + count);
  used += count;
  return bytes;
}

/** A decimal id like Compute Engine's (19 digits, as a string: JSON numbers would lose digits). */
export function newNumericId(): string {
  const bytes = randomBytes(8);
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  // Keep it positive, 19 digits, below 2^63.
  return (1_000_000_000_000_000_000n + (n % 8_000_000_000_000_000_000n)).toString();
}

const hex = (bytes: number) =>
  Array.from(randomBytes(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** An operation name in Compute Engine's shape: `operation-<ms>-<hex>-<hex>-<hex>`. */
export function newOperationName(nowMs: number): string {
  return `operation-${nowMs}-${hex(6)}-${hex(4)}-${hex(4)}`;
}
