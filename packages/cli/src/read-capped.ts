// Reading a byte stream whole, up to a cap: what a reader holds stays under a stated size however
// much the source would send (a 1 GiB body, an endless chunked one, a gzip bomb inflating as read).

/** The source sent more than the cap allowed; reading stopped there. */
export class CapExceeded extends Error {
  constructor(readonly limit: number) {
    super(`more than ${formatBytes(limit)}`);
  }
}

/**
 * Every chunk of `source` joined, or `CapExceeded` as soon as they pass `limit` bytes. Stopping
 * early ends the iteration, which cancels a web stream (a fetch body: its connection is closed).
 *
 * @example
 * const response = await fetch(url);
 * const text = (await readCapped(response.body!, 16 * 1024 * 1024)).toString('utf8');
 */
export async function readCapped(
  source: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) throw new CapExceeded(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A size for people: whole MiB or KiB when it is one, else bytes.
 *
 * @example
 * formatBytes(16 * 1024 * 1024); // '16 MiB'
 */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
