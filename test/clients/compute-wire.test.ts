// Wire details that real clients depend on, checked with plain fetch on the listening URL
// (see /work/shared/reference/real-clients.md §2.2, §4 and §8).
import { createEmulator, type Emulator, sampleForwardingRules } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_TOKEN, newRequestId } from '../support/real-clients.js';

const project = 'my-project';
const region = 'us-central1';
const PATH = `/compute/v1/projects/${project}/regions/${region}`;
const auth = { authorization: `Bearer ${FAKE_TOKEN}` };
// What the Node compute client sends on every call, GET included.
const json = { ...auth, 'content-type': 'application/json' };

type ErrorBody = {
  error: {
    code: number;
    message: string;
    errors: { domain: string; reason: string; message: string; location?: string }[];
  };
};

const expectEnvelope = (body: unknown, code: number, reason: string) => {
  const { error } = body as ErrorBody;
  expect(Object.keys(body as object)).toEqual(['error']);
  expect(error.code).toBe(code);
  expect(error).not.toHaveProperty('status');
  expect(error.message).toEqual(expect.any(String));
  expect(error.errors).toHaveLength(1);
  expect(error.errors[0]).toMatchObject({ domain: 'global', reason, message: error.message });
  return error;
};

describe('wire details', () => {
  let emulator: Emulator;
  let url: string;

  beforeAll(async () => {
    emulator = await createEmulator({
      seed: {
        forwardingRules: sampleForwardingRules(400).map((rule) => ({ project, region, rule })),
      },
    });
    url = await emulator.listen(0);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  const names = async (query: string) => {
    const res = await fetch(`${url}${PATH}/forwardingRules?${query}`, { headers: json });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items?: { name: string }[] };
    return (body.items ?? []).map((r) => r.name);
  };

  it('decodes + as a space in the query (gcloud), like %20 (Node clients)', async () => {
    const plus = await names('alt=json&filter=name+eq+%22web-.*%22&maxResults=500');
    const percent = await names('filter=name%20eq%20%22web-.%2A%22&maxResults=500');
    expect(plus.length).toBeGreaterThan(0);
    expect(plus.every((n) => n.startsWith('web-'))).toBe(true);
    expect(plus).toEqual(percent);
    const orderPlus = await names('orderBy=creationTimestamp+desc&maxResults=500');
    expect(orderPlus).toEqual(await names('orderBy=creationTimestamp%20desc&maxResults=500'));
    expect(orderPlus).not.toEqual([...orderPlus].sort());
  });

  it('accepts returnPartialSuccess as true, True, false and False; refuses other values', async () => {
    const all = await names('maxResults=500');
    for (const value of ['true', 'True', 'false', 'False']) {
      expect(await names(`returnPartialSuccess=${value}&maxResults=500`)).toEqual(all);
    }
    const res = await fetch(`${url}${PATH}/forwardingRules?returnPartialSuccess=yes`, {
      headers: json,
    });
    expect(res.status).toBe(400);
    expectEnvelope(await res.json(), 400, 'invalid');
  });

  it('ignores unknown parameters such as alt=json&prettyPrint=false', async () => {
    const all = await names('maxResults=500');
    expect(
      await names('alt=json&prettyPrint=false&$prettyPrint=false&key=x&maxResults=500'),
    ).toEqual(all);
    const res = await fetch(`${url}${PATH}/forwardingRules/${all[0]}?alt=json&prettyPrint=false`, {
      headers: json,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe(all[0]);
  });

  it('accepts the two-byte body "" that the Node client sends on wait', async () => {
    const insert = await fetch(`${url}${PATH}/forwardingRules?requestId=${newRequestId()}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'fr-wire-wait', labels: {} }),
    });
    expect(insert.status).toBe(200);
    const op = (await insert.json()) as { name: string; status: string };
    expect(op.status).toBe('RUNNING');
    const wait = await fetch(`${url}${PATH}/operations/${op.name}/wait?`, {
      method: 'POST',
      headers: json,
      body: '""',
    });
    expect(wait.status).toBe(200);
    expect(await wait.json()).toMatchObject({ name: op.name, status: 'DONE', progress: 100 });
    // googleapis sends no body at all.
    const empty = await fetch(`${url}${PATH}/operations/${op.name}/wait`, {
      method: 'POST',
      headers: auth,
    });
    expect(empty.status).toBe(200);
  });

  it('answers malformed JSON with 400 and the parser reason', async () => {
    const res = await fetch(`${url}${PATH}/forwardingRules`, {
      method: 'POST',
      headers: json,
      body: '{"name": "fr-x",',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const error = expectEnvelope(await res.json(), 400, 'badRequest');
    expect(error.message).toMatch(/^Invalid JSON payload received\. .+/);
  });

  it('answers a missing Authorization header with the 401 envelope, without status', async () => {
    const res = await fetch(`${url}${PATH}/forwardingRules`, { headers: {} });
    expect(res.status).toBe(401);
    const error = expectEnvelope(await res.json(), 401, 'required');
    expect(error.message).toContain('Request is missing required authentication credential');
    expect(error.errors[0]).toMatchObject({ location: 'Authorization', locationType: 'header' });
    // Same on a write and on wait.
    for (const [method, path] of [
      ['POST', `${PATH}/forwardingRules`],
      ['POST', `${PATH}/operations/operation-1/wait`],
      ['GET', `${PATH}/forwardingRules/x`],
    ] as const) {
      const r = await fetch(`${url}${path}`, { method, body: method === 'POST' ? '{}' : null });
      expect(r.status).toBe(401);
      expectEnvelope(await r.json(), 401, 'required');
    }
  });

  it('answers unknown paths with the 404 envelope', async () => {
    const res = await fetch(`${url}/compute/v1/projects/${project}/nothing-here`, {
      headers: json,
    });
    expect(res.status).toBe(404);
    expectEnvelope(await res.json(), 404, 'notFound');
  });

  it('answers a requestId that is not a UUID with 400 naming the field', async () => {
    const res = await fetch(`${url}${PATH}/forwardingRules?requestId=not-a-uuid`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'fr-bad-id' }),
    });
    expect(res.status).toBe(400);
    const error = expectEnvelope(await res.json(), 400, 'invalid');
    expect(error.message).toContain("'requestId'");
  });
});

describe('body limit', () => {
  let emulator: Emulator;
  let url: string;

  beforeAll(async () => {
    emulator = await createEmulator({ bodyLimit: 1024 });
    url = await emulator.listen(0);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  const big = JSON.stringify({ name: 'fr-big', description: 'x'.repeat(2_000) });

  it('answers a body over the limit with 413 (Content-Length declared)', async () => {
    const res = await fetch(`${url}${PATH}/forwardingRules`, {
      method: 'POST',
      headers: json,
      body: big,
    });
    expect(res.status).toBe(413);
    const error = expectEnvelope(await res.json(), 413, 'payloadTooLarge');
    expect(error.message).toContain('1024');
  });

  it('answers a chunked body over the limit with 413 too', async () => {
    const bytes = new TextEncoder().encode(big);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 256) controller.enqueue(bytes.slice(i, i + 256));
        controller.close();
      },
    });
    const res = await fetch(`${url}${PATH}/forwardingRules`, {
      method: 'POST',
      headers: json,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expectEnvelope(await res.json(), 413, 'payloadTooLarge');
    const state = await fetch(`${url}/_listkit/state`);
    expect(((await state.json()) as { forwardingRules: unknown[] }).forwardingRules).toEqual([]);
  });

  it('accepts a body just under the limit', async () => {
    const body = JSON.stringify({ name: 'fr-small', description: 'x'.repeat(900) });
    expect(body.length).toBeLessThanOrEqual(1024);
    const res = await fetch(`${url}${PATH}/forwardingRules`, {
      method: 'POST',
      headers: json,
      body,
    });
    expect(res.status).toBe(200);
  });
});
