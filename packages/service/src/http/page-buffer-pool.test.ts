import { EventEmitter } from 'node:events';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../emulator.js';
import { sampleForwardingRules } from '../forwarding-rules/sample-forwarding-rules.js';
import { PageBufferPool } from './page-buffer-pool.js';

describe('PageBufferPool', () => {
  it('reuses a buffer only after its answer finished, and keeps at most maxBuffers', () => {
    const pool = new PageBufferPool(2);
    const first = new EventEmitter();
    const a = pool.take(1000, first);
    const b = pool.take(1000, new EventEmitter());
    expect(b.buffer).not.toBe(a.buffer); // a's answer is still being sent
    first.emit('finish');
    expect(pool.size).toBe(1);
    const c = pool.take(800, new EventEmitter());
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(800);
    const outgoings = [1, 2, 3].map(() => new EventEmitter());
    for (const o of outgoings) pool.take(1000, o);
    for (const o of outgoings) o.emit('finish');
    expect(pool.size).toBe(2);
  });

  it('without a socket, or for a body above maxBytes, gives a fresh buffer', () => {
    const pool = new PageBufferPool(2, 4096);
    expect(pool.take(100, undefined).buffer).not.toBe(pool.take(100, undefined).buffer);
    const big = new EventEmitter();
    pool.take(5000, big);
    big.emit('finish');
    expect(pool.size).toBe(0);
  });
});

/** One GET over the socket; the body as text. */
function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: 'Bearer t' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('list pages over a socket with pooled buffers', () => {
  it('answers many concurrent pages of different sizes, each with its own rules', async () => {
    const rules = sampleForwardingRules(1200, { project: 'p' });
    const emulator = await createEmulator({
      seed: { forwardingRules: rules.map((rule) => ({ project: 'p', region: 'r', rule })) },
    });
    try {
      const url = `${await emulator.listen(0)}/compute/v1/projects/p/regions/r/forwardingRules`;
      const names = rules.map((r) => r.name).sort();
      const sizes = Array.from({ length: 60 }, (_, i) => [500, 1, 37, 499, 250][i % 5]!);
      for (let round = 0; round < 3; round++) {
        const pages = await Promise.all(sizes.map((n) => get(`${url}?maxResults=${n}`)));
        for (const [i, text] of pages.entries()) {
          const page = JSON.parse(text);
          expect(page.items.map((r: { name: string }) => r.name)).toEqual(names.slice(0, sizes[i]));
        }
      }
    } finally {
      await emulator.close();
    }
  });
});
