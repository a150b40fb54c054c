import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, gzipResponses } from './compression.js';

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
});
