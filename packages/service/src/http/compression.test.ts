import { createGunzip, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, GzipCache, gzipResponses, userAgentReadsGzip } from './compression.js';

const big = JSON.stringify({ items: Array.from({ length: 400 }, (_, i) => ({ name: `r-${i}` })) });

function app(headers: Record<string, string> = {}) {
  const hono = new Hono();
  hono.use('*', gzipResponses({ threshold: 1024 }));
  hono.get('/big', (c) => c.body(big, 200, { 'content-type': 'application/json', ...headers }));
  return hono;
}
const get = (hono: Hono, accept?: string) =>
  hono.request('/big', { headers: accept ? { 'accept-encoding': accept } : {} });

describe('gzipResponses', () => {
  it('gzips above the threshold and weakens a strong ETag; a weak one stays', async () => {
    const strong = await get(app({ etag: '"v1"' }), 'gzip');
    expect(strong.headers.get('content-encoding')).toBe('gzip');
    expect(strong.headers.get('etag')).toBe('W/"v1"');
    expect(gunzipSync(Buffer.from(await strong.arrayBuffer())).toString()).toBe(big);
    const weak = await get(app({ etag: 'W/"v1"' }), 'gzip');
    expect(weak.headers.get('etag')).toBe('W/"v1"');
  });

  it('leaves no-transform answers and non-JSON types alone', async () => {
    const noTransform = await get(app({ 'cache-control': 'no-transform' }), 'gzip');
    expect(noTransform.headers.get('content-encoding')).toBeNull();
    expect(await noTransform.text()).toBe(big);
    const binary = await get(app({ 'content-type': 'application/octet-stream' }), 'gzip');
    expect(binary.headers.get('content-encoding')).toBeNull();
    expect(binary.headers.get('vary')).toBeNull();
  });

  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['x-gzip', true],
    ['deflate, gzip;q=0.001', true],
    ['gzip;q=0', false],
    ['gzip; q=0.0', false],
    ['*;q=0', false],
    ['*', true],
    ['identity, *;q=0', false],
    ['gzip;q=0, *', false],
  ])('acceptsGzip(%j) is %j', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['google-api-nodejs-client/11.3.4', false],
    ['google-api-nodejs-client/8.0.3 (gzip)', true],
    ['my program gzip', true],
    ['Agent (GZip)', true],
  ])('userAgentReadsGzip(%j) is %j', (agent, expected) => {
    expect(userAgentReadsGzip(agent)).toBe(expected);
  });

  it('on a gated path, gzips only for a User-Agent that says gzip', async () => {
    const hono = new Hono();
    hono.use(
      '*',
      gzipResponses({ threshold: 1024 }, (path) => path.startsWith('/api/')),
    );
    for (const path of ['/api/big', '/own/big']) {
      hono.get(path, (c) => c.body(big, 200, { 'content-type': 'application/json' }));
    }
    const ask = (path: string, agent?: string) =>
      hono.request(path, {
        headers: { 'accept-encoding': 'gzip', ...(agent ? { 'user-agent': agent } : {}) },
      });
    const plain = await ask('/api/big', 'curl/8.5.0');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(big);
    const zipped = await ask('/api/big', 'my program (gzip)');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(big);
    expect((await ask('/own/big')).headers.get('content-encoding')).toBe('gzip');
  });
});

describe('GzipCache', () => {
  const rules = Array.from({ length: 300 }, (_, i) => ({
    name: `rule-${i}`,
    labels: { env: 'prod' },
  }));
  const page = (token: string | undefined, items = rules) =>
    Buffer.from(
      JSON.stringify({
        kind: 'compute#forwardingRuleList',
        items,
        ...(token ? { nextPageToken: token } : {}),
        selfLink: 'https://x/rules',
      }),
    );

  it('answers the same page with a new token from the cached prefix, every byte right', async () => {
    const cache = new GzipCache(1024 * 1024);
    const first = page('token-1');
    expect(gunzipSync(await cache.gzip(first, 1)).equals(first)).toBe(true);
    const kept = cache.size;
    expect(kept).toBeGreaterThan(first.length);
    const second = page('another-token-2');
    const zipped = await cache.gzip(second, 1);
    expect(gunzipSync(zipped).equals(second)).toBe(true);
    expect(cache.size).toBe(kept); // a hit: nothing new kept
    expect(zipped.length).toBeLessThan(second.length / 5);
  });

  it('compresses again when any byte of the prefix differs (nothing to invalidate)', async () => {
    const cache = new GzipCache(1024 * 1024);
    await cache.gzip(page('t'), 1);
    const changed = page('t', [
      ...rules.slice(0, 150),
      { name: 'rule-150', labels: { env: 'prud' } },
      ...rules.slice(151),
    ]);
    expect(gunzipSync(await cache.gzip(changed, 1)).equals(changed)).toBe(true);
    const last = page(undefined); // no token: the whole body is the prefix
    expect(gunzipSync(await cache.gzip(last, 1)).equals(last)).toBe(true);
    expect(gunzipSync(await cache.gzip(last, 1)).equals(last)).toBe(true);
  });

  it('keeps at most maxBytes, least recently used out first', async () => {
    const one = page(undefined).length;
    const cache = new GzipCache(Math.floor(one * 4.5));
    for (let i = 0; i < 20; i++) {
      const body = page(
        undefined,
        rules.map((r) => ({ ...r, name: `${r.name}-${i}` })),
      );
      expect(gunzipSync(await cache.gzip(body, 1)).equals(body)).toBe(true);
      expect(cache.size).toBeLessThanOrEqual(cache.maxBytes);
    }
    expect(cache.size).toBeGreaterThan(0);
    const none = new GzipCache(0);
    const body = page('t');
    expect(gunzipSync(await none.gzip(body, 1)).equals(body)).toBe(true);
    expect(none.size).toBe(0);
  });

  it('sends a tail longer than one stored block (64 KiB) in several, every byte right', async () => {
    const cache = new GzipCache(1024 * 1024);
    for (const length of [0xffff - 40, 0xffff * 2 + 7]) {
      const body = page('t'.repeat(length));
      await cache.gzip(body, 1);
      expect(gunzipSync(await cache.gzip(body, 1)).equals(body)).toBe(true);
    }
  });

  it('writes one gzip member that zlib and a streaming reader both take', async () => {
    const cache = new GzipCache(1024 * 1024);
    const body = page('tok');
    await cache.gzip(body, 1);
    const zipped = await cache.gzip(page('tok'), 1);
    expect([...zipped.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    const chunks: Buffer[] = [];
    const stream = createGunzip();
    stream.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
    for (let at = 0; at < zipped.length; at += 7) stream.write(zipped.subarray(at, at + 7));
    stream.end();
    await done;
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });
});
