// How the emulator serves the built playground at /playground/: precompressed copies chosen by
// Accept-Encoding, hashed assets cached for good and the page revalidated on every load.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createEmulator, type Emulator } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountPlayground } from '../../../packages/service/src/http/playground-static.js';

const dist = fileURLToPath(new URL('../../../playground/dist', import.meta.url));
const built = existsSync(join(dist, 'index.html'));
// Outside CI a missing build skips these tests, saying why; in CI it fails them.
if (!built && !process.env.CI)
  console.warn('skipping the playground serving tests: run `pnpm build`');

describe.skipIf(!built && !process.env.CI)('the playground as the emulator serves it', () => {
  let emulator: Emulator;
  let script: string;

  beforeAll(async () => {
    if (!built) throw new Error('playground/dist is missing: run `pnpm build` first');
    emulator = await createEmulator();
    expect(mountPlayground(emulator.app, dist)).toBe(true);
    const name = readdirSync(join(dist, 'assets')).find((f) => f.endsWith('.js'));
    script = `/playground/assets/${name}`;
  });
  afterAll(() => emulator?.close());

  const get = (path: string, encoding?: string) =>
    emulator.app.request(path, { headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('sends Brotli, then gzip, then the plain file, as the browser accepts', async () => {
    const plain = readFileSync(join(dist, script.replace('/playground/', '')));
    const br = await get(script, 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toContain('Accept-Encoding');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(plain.length / 2);
    expect(brotliDecompressSync(brBytes).equals(plain)).toBe(true);

    const gz = await get(script, 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(plain)).toBe(true);

    const identity = await get(script);
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await identity.arrayBuffer()).equals(plain)).toBe(true);
  });

  it('caches hashed assets as immutable and revalidates the page', async () => {
    expect((await get(script, 'br')).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const page = await get('/playground/', 'gzip');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/playground/assets/missing.js')).headers.get('cache-control')).toBeNull();
  });
});
