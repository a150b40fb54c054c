// Gzip of large answers over real HTTP (loopback): what Compute Engine does when a client asks
// (in Accept-Encoding and in its User-Agent, as Google's APIs require), and what the real Google
// clients must still read.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { createEmulator, type Emulator, sampleForwardingRules } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeClients, googleapisCompute } from '../support/real-clients.js';

const project = 'my-project';
const region = 'us-central1';
const LIST = `/compute/v1/projects/${project}/regions/${region}/forwardingRules`;
// The user agents the real clients send (recorded): googleapis says gzip, @google-cloud/compute not.
const GOOGLEAPIS_AGENT = { 'user-agent': 'google-api-nodejs-client/8.0.3 (gzip)' };
const COMPUTE_AGENT = { 'user-agent': 'google-api-nodejs-client/11.3.4' };

/** One GET with node:http, which (unlike fetch) hands back the body exactly as sent. */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization: 'Bearer t', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('gzip of large answers', () => {
  const seeded = sampleForwardingRules(600, { project });
  let emulator: Emulator;
  let url: string;

  beforeAll(async () => {
    emulator = await createEmulator({
      seed: { forwardingRules: seeded.map((rule) => ({ project, region, rule })) },
    });
    url = await emulator.listen(0);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('gzips a page of 500 when the client accepts gzip; the JSON is the same', async () => {
    const plain = await get(`${url}${LIST}`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const zipped = await get(`${url}${LIST}`, {
      'accept-encoding': 'gzip, deflate, br',
      ...GOOGLEAPIS_AGENT,
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 5);
    const page = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(page.items).toHaveLength(500);
    // Page tokens differ (each is sealed afresh); the rest is byte for byte the same.
    // (Indented by default, as Google's answers are: prettyPrint.)
    const strip = (text: string) => text.replace(/"nextPageToken": ?"[^"]*"/, '');
    expect(strip(gunzipSync(zipped.body).toString('utf8'))).toBe(
      strip(plain.body.toString('utf8')),
    );
  });

  it.each([
    ['gzip;q=0', undefined],
    ['identity', undefined],
    ['br', undefined],
    ['*', 'gzip'],
    ['deflate, *;q=0.5', 'gzip'],
    ['GZIP;q=0.3', 'gzip'],
    ['*, gzip;q=0', undefined],
  ])('Accept-Encoding %j answers content-encoding %j', async (accept, encoding) => {
    const res = await get(`${url}${LIST}`, { 'accept-encoding': accept, ...GOOGLEAPIS_AGENT });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
  });

  it.each([
    ['@google-cloud/compute', COMPUTE_AGENT, undefined],
    ['no user agent', {}, undefined],
    ['googleapis', GOOGLEAPIS_AGENT, 'gzip'],
    ['an agent saying GZIP', { 'user-agent': 'my program (GZIP)' }, 'gzip'],
  ])(
    'asks for gzip as %s does: content-encoding %j, as Google answers',
    async (_, agent, encoding) => {
      const res = await get(`${url}${LIST}`, { 'accept-encoding': 'gzip, deflate, br', ...agent });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(
        JSON.parse((encoding ? gunzipSync(res.body) : res.body).toString('utf8')).items,
      ).toHaveLength(500);
    },
  );

  it("gzips listkit's own answers (the control plane) on Accept-Encoding alone", async () => {
    const state = await get(`${url}/_listkit/state`, { 'accept-encoding': 'gzip' });
    expect(state.status).toBe(200);
    expect(state.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(state.body).toString('utf8'))).toBeTypeOf('object');
  });

  it('leaves small answers alone (under 8 KiB), errors included', async () => {
    const small = await get(`${url}${LIST}?maxResults=2`, {
      'accept-encoding': 'gzip',
      ...GOOGLEAPIS_AGENT,
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).items).toHaveLength(2);
    const bad = await get(`${url}${LIST}?filter=name%20%3D`, {
      'accept-encoding': 'gzip',
      ...GOOGLEAPIS_AGENT,
    });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(bad.body.toString('utf8')).error.code).toBe(400);
  });

  it('@google-cloud/compute and googleapis read their pages (googleapis gzipped)', async () => {
    const clients = computeClients(url);
    try {
      const names: string[] = [];
      for await (const rule of clients.rules.listAsync({ project, region, maxResults: 500 })) {
        names.push(rule.name!);
      }
      expect(names).toEqual(seeded.map((r) => r.name).sort());
    } finally {
      await clients.close();
    }
    const compute = googleapisCompute(url);
    const res = await compute.forwardingRules.list({ project, region, maxResults: 500 });
    expect(res.data.items).toHaveLength(500);
    // googleapis decompresses, and keeps the header it was answered with.
    expect(new Headers(res.headers as HeadersInit).get('content-encoding')).toBe('gzip');
  });

  it('answers a page again from its cached compressed prefix, and a write shows at once', async () => {
    const read = async () => {
      const res = await get(`${url}${LIST}`, { 'accept-encoding': 'gzip', ...GOOGLEAPIS_AGENT });
      expect(res.headers['content-encoding']).toBe('gzip');
      return JSON.parse(gunzipSync(res.body).toString('utf8'));
    };
    const first = await read();
    const again = await read(); // the prefix from the cache, a new token compressed after it
    expect(again.items).toEqual(first.items);
    expect(again.nextPageToken).not.toBe(first.nextPageToken);
    const viaFetch = await fetch(`${url}${LIST}`, { headers: { authorization: 'Bearer t' } });
    expect(((await viaFetch.json()) as { items: unknown[] }).items).toEqual(first.items);
    // Keyed by the bytes: a changed rule changes the page, nothing is invalidated by hand.
    const target = first.items[3];
    const inserted = await fetch(
      `${url}/compute/v1/projects/${project}/regions/${region}/forwardingRules`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `${target.name}-a`, IPProtocol: 'TCP', portRange: '80' }),
      },
    );
    expect(inserted.status).toBe(200);
    const after = await read();
    expect(after.items.map((r: { name: string }) => r.name)).toContain(`${target.name}-a`);
    expect(after.items).toHaveLength(500);
    await fetch(
      `${url}/compute/v1/projects/${project}/regions/${region}/forwardingRules/${target.name}-a`,
      {
        method: 'DELETE',
        headers: { authorization: 'Bearer t' },
      },
    );
    expect((await read()).items).toEqual(first.items);
  });

  it('can be turned off', async () => {
    const off = await createEmulator({
      compression: false,
      seed: { forwardingRules: seeded.map((rule) => ({ project, region, rule })) },
    });
    try {
      const res = await get(`${await off.listen(0)}${LIST}`, {
        'accept-encoding': 'gzip',
        ...GOOGLEAPIS_AGENT,
      });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body.toString('utf8')).items).toHaveLength(500);
    } finally {
      await off.close();
    }
  });
});
