/** A decimal id like Compute Engine's (19 digits, as a string: JSON numbers would lose digits). */
export function newNumericId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  // Keep it positive, 19 digits, below 2^63.
  return (1_000_000_000_000_000_000n + (n % 8_000_000_000_000_000_000n)).toString();
}

const hex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

/** An operation name in Compute Engine's shape: `operation-<ms>-<hex>-<hex>-<hex>`. */
export function newOperationName(nowMs: number): string {
  return `operation-${nowMs}-${hex(6)}-${hex(4)}-${hex(4)}`;
}
