import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import type { Seed } from '../control/seed.js';
import { createEmulator, type EmulatorOptions } from '../emulator.js';

// HTTP details of the Compute routes: query parameters, bodies, error envelopes, list shape,
// requestId and the base URL, through the public HTTP interface.

const ORIGIN = 'http://emulator';
const REGION = '/compute/v1/projects/p/regions/r';
const RULES = `${REGION}/forwardingRules`;
const BASE = 'https://www.googleapis.com/compute/v1/';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes
type Json = any;

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  IPProtocol: 'TCP',
  portRange: '80',
  loadBalancingScheme: 'EXTERNAL',
  target: 'projects/p/regions/r/targetPools/pool',
  ...extra,
});
const insert = (emulator: Emu, body: unknown, query = '') =>
  call(emulator, 'POST', RULES + query, { body: JSON.stringify(body) });
const list = (emulator: Emu, query = '') => call(emulator, 'GET', RULES + query);
const itemNames = (json: Json): string[] => (json.items ?? []).map((r: { name: string }) => r.name);

/** `count` seeded rules in p/r named fr-0000…, with addresses given (fast to load). */
function seedOf(count: number): Seed {
  return {
    forwardingRules: Array.from({ length: count }, (_, i) => ({
      project: 'p',
      region: 'r',
      rule: {
        name: `fr-${String(i).padStart(4, '0')}`,
        IPAddress: `10.0.${Math.floor(i / 256)}.${i % 256}`,
        IPProtocol: i % 2 === 0 ? 'TCP' : 'UDP',
        loadBalancingScheme: 'EXTERNAL',
        description: i % 3 === 0 ? 'web frontend' : 'api',
        creationTimestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
      },
    })),
  };
}

function expectInvalid(res: { status: number; json: Json }, location: string): void {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe(400);
  expect(res.json.error.message).toContain(`Invalid value for field '${location}'`);
  expect(res.json.error.errors).toHaveLength(1);
  expect(res.json.error.errors[0]).toMatchObject({ reason: 'invalid', location });
  expect(res.json.error).not.toHaveProperty('status');
}

describe('query strings', () => {
  it.each([
    ['+ for spaces', '?filter=name+%3D+fr-0003'],
    ['%20 for spaces', '?filter=name%20%3D%20fr-0003'],
    ['mixed', '?filter=name+%3D%20fr-0003'],
    ['URLSearchParams encoding', `?${new URLSearchParams({ filter: 'name = fr-0003' })}`],
  ])('decode filter values with form semantics (%s)', async (_, query) => {
    const emulator = await createEmulator({ seed: seedOf(10) });
    const res = await list(emulator, query);
    expect(res.status).toBe(200);
    expect(itemNames(res.json)).toEqual(['fr-0003']);
  });

  it('decodes orderBy=creationTimestamp+desc', async () => {
    const emulator = await createEmulator({ seed: seedOf(5) });
    const res = await list(emulator, '?orderBy=creationTimestamp+desc');
    expect(res.status).toBe(200);
    expect(itemNames(res.json)).toEqual(['fr-0004', 'fr-0003', 'fr-0002', 'fr-0001', 'fr-0000']);
  });

  it.each(['true', 'false', 'True', 'False', ''])(
    'accepts returnPartialSuccess=%j',
    async (value) => {
      const emulator = await createEmulator({ seed: seedOf(3) });
      const res = await list(emulator, `?returnPartialSuccess=${value}`);
      expect(res.status).toBe(200);
      expect(itemNames(res.json)).toHaveLength(3);
      const ops = await call(emulator, 'GET', `${REGION}/operations?returnPartialSuccess=${value}`);
      expect(ops.status).toBe(200);
    },
  );

  it.each(['yes', 'maybe', 'tru'])('rejects returnPartialSuccess=%s with 400', async (value) => {
    const emulator = await createEmulator();
    expectInvalid(await list(emulator, `?returnPartialSuccess=${value}`), 'returnPartialSuccess');
    expectInvalid(
      await call(emulator, 'GET', `${REGION}/operations?returnPartialSuccess=${value}`),
      'returnPartialSuccess',
    );
  });

  it('accepts the system parameters and refuses a parameter the method has not (skip too)', async () => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const res = await list(
      emulator,
      '?alt=json&prettyPrint=false&$prettyPrint=True&quotaUser=q&key=k&$.xgafv=2&userIp=1.2.3.4&fields=items(name)',
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      items: [{ name: 'fr-0000' }, { name: 'fr-0001' }, { name: 'fr-0002' }],
    });
    for (const query of [
      '?zzz=1',
      '?skip=2',
      '?skip=-1',
      '?requestId=x',
      '?includeAllScopes=true',
    ]) {
      const refused = await list(emulator, query);
      const name = query.slice(1).split('=')[0];
      expect(refused.status).toBe(400);
      expect(refused.json.error.message).toBe(
        `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`,
      );
      expect(refused.json.error.status).toBeUndefined();
    }
    const created = await insert(emulator, rule('fr-x'), '?unknownParam=1&alt=json');
    expect(created.status).toBe(400);
    expect((await list(emulator)).json.items).toHaveLength(3); // nothing was created
  });

  it("indents answers by default, as Google's front end does, and not with prettyPrint=false", async () => {
    const emulator = await createEmulator({ seed: seedOf(2) });
    const pretty = await list(emulator, '?fields=items(name)');
    expect(pretty.text).toBe(
      '{\n  "items": [\n    {\n      "name": "fr-0000"\n    },\n    {\n      "name": "fr-0001"\n    }\n  ]\n}\n',
    );
    for (const off of [
      'prettyPrint=false',
      '$prettyPrint=False',
      'prettyPrint=false&$prettyPrint=true',
    ]) {
      const compact = await list(emulator, `?fields=items(name)&${off}`);
      expect(compact.text).toBe('{"items":[{"name":"fr-0000"},{"name":"fr-0001"}]}');
    }
    expect((await list(emulator, '?fields=items(name)&prettyPrint=true')).text).toBe(pretty.text);
    // A whole page and an error are indented alike; the values do not change.
    const page = await list(emulator);
    expect(page.text.startsWith('{\n  "kind": "compute#forwardingRuleList",\n')).toBe(true);
    expect(JSON.parse(page.text)).toEqual(
      JSON.parse((await list(emulator, '?prettyPrint=false')).text),
    );
    const missing = await call(emulator, 'GET', `${RULES}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.text).toMatch(/^\{\n {2}"error": \{\n {4}"code": 404,\n/);
    const refused = await list(emulator, '?skip=1&prettyPrint=false');
    expect(refused.text.startsWith('{"error":{"code":400,')).toBe(true);
  });

  it.each([
    ['alt=proto', 'alt'],
    ['$alt=media', '$alt'],
    ['$.xgafv=3', '$.xgafv'],
    ['prettyPrint=yes', 'prettyPrint'],
    ['callback=f', 'callback'],
  ])('refuses the system parameter %s (400 naming it)', async (query, name) => {
    const emulator = await createEmulator({ seed: seedOf(1) });
    const res = await list(emulator, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.errors[0].location ?? name).toBe(name);
  });

  it('keeps the first of repeated parameters', async () => {
    const emulator = await createEmulator({ seed: seedOf(5) });
    const res = await list(emulator, '?maxResults=2&maxResults=4');
    expect(res.json.items).toHaveLength(2);
  });
});

describe('the content type of answers', () => {
  it('is application/json; charset=UTF-8 on JSON answers and errors, as in the real API', async () => {
    const emulator = await createEmulator();
    const inserted = await insert(emulator, rule('fr-1'));
    const op = inserted.json;
    const answers = [
      inserted,
      await list(emulator),
      await call(emulator, 'GET', `${RULES}/fr-1`),
      await call(emulator, 'GET', `${REGION}/operations/${op.name}`),
      await call(emulator, 'GET', `${REGION}/operations?maxResults=1`),
      await call(emulator, 'GET', `${RULES}/nope`),
      await list(emulator, '?filter=(('),
    ];
    for (const res of answers) {
      expect(res.headers.get('content-type'), res.text).toBe('application/json; charset=UTF-8');
    }
  });
});

describe('operations in answers', () => {
  it('carry no creationTimestamp on insert, get, wait and list, as recorded real answers', async () => {
    const emulator = await createEmulator();
    const op = (await insert(emulator, rule('fr-1'))).json;
    const answers = [
      op,
      (await call(emulator, 'GET', `${REGION}/operations/${op.name}`)).json,
      (await call(emulator, 'POST', `${REGION}/operations/${op.name}/wait`)).json,
      ...(await call(emulator, 'GET', `${REGION}/operations`)).json.items,
    ];
    for (const answer of answers) {
      expect(answer.kind).toBe('compute#operation');
      expect(answer).not.toHaveProperty('creationTimestamp');
    }
    // The list still orders by creation time, as Compute accepts `creationTimestamp desc`.
    await insert(emulator, rule('fr-2'));
    const ordered = await call(
      emulator,
      'GET',
      `${REGION}/operations?orderBy=creationTimestamp%20desc`,
    );
    expect(
      ordered.json.items.map((o: { targetLink: string }) => o.targetLink.split('/').pop()),
    ).toEqual(['fr-2', 'fr-1']);
  });
});

describe('maxResults', () => {
  // [maxResults, items on the first page]
  const table: [string, number][] = [
    ['0', 500],
    ['', 500],
    ['1', 1],
    ['499', 499],
    ['500', 500],
    ['501', 500],
    ['4294967295', 500],
  ];

  it.each(table)('maxResults=%j gives %i items and a next page', async (value, expected) => {
    const emulator = await createEmulator({ seed: seedOf(600) });
    const res = await list(emulator, `?maxResults=${value}`);
    expect(res.status).toBe(200);
    expect(res.json.items).toHaveLength(expected);
    expect(res.json.nextPageToken).toEqual(expect.any(String));
  });

  it('without maxResults lists 600 rules in two pages of 500 and 100', async () => {
    const emulator = await createEmulator({ seed: seedOf(600) });
    const first = await list(emulator);
    expect(first.json.items).toHaveLength(500);
    const second = await list(
      emulator,
      `?pageToken=${encodeURIComponent(first.json.nextPageToken)}`,
    );
    expect(second.status).toBe(200);
    expect(second.json.items).toHaveLength(100);
    expect(second.json).not.toHaveProperty('nextPageToken');
    expect([...itemNames(first.json), ...itemNames(second.json)]).toEqual(
      seedOf(600).forwardingRules!.map((r) => r.rule.name),
    );
  });

  it.each(['-1', 'abc', '1.5', '1e3', '4294967296', ' 5', '0x10'])(
    'rejects maxResults=%j with 400',
    async (value) => {
      const emulator = await createEmulator({ seed: seedOf(3) });
      expectInvalid(await list(emulator, `?maxResults=${encodeURIComponent(value)}`), 'maxResults');
      expectInvalid(
        await call(emulator, 'GET', `${REGION}/operations?maxResults=${encodeURIComponent(value)}`),
        'maxResults',
      );
    },
  );
});

describe('request bodies', () => {
  it.each([
    ['no body', undefined],
    ['an empty body', ''],
    ['the two bytes ""', '""'],
    ['"" with blanks', ' "" \n'],
  ])('wait accepts %s', async (_, body) => {
    const emulator = await createEmulator();
    const op = (await insert(emulator, rule('fr-1'))).json;
    const res = await call(emulator, 'POST', `${REGION}/operations/${op.name}/wait`, { body });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: op.name, status: 'DONE' });
  });

  it.each(['{', '{"name": "x",}', "{'name': 'x'}", 'nope', '{"name": "x"} trailing'])(
    'malformed JSON %j is 400 with the parser reason',
    async (body) => {
      const emulator = await createEmulator();
      let reason = '';
      try {
        JSON.parse(body);
      } catch (error) {
        reason = (error as Error).message;
      }
      const res = await call(emulator, 'POST', RULES, { body });
      expect(res.status).toBe(400);
      expect(res.json.error.message).toBe(`Invalid JSON payload received. ${reason}`);
      expect(res.json.error.errors[0]).toMatchObject({ reason: 'badRequest', domain: 'global' });
      expect(itemNames((await list(emulator)).json)).toEqual([]);
      // The same on wait.
      const op = (await insert(emulator, rule('fr-1'))).json;
      const wait = await call(emulator, 'POST', `${REGION}/operations/${op.name}/wait`, { body });
      expect(wait.status).toBe(400);
    },
  );

  it('a body over bodyLimit is 413, however it arrives', async () => {
    const body = JSON.stringify(rule('fr-1', { description: 'x'.repeat(200) }));
    const emulator = await createEmulator({ bodyLimit: 100 });
    const encoded = new TextEncoder().encode(body);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < encoded.length; i += 16) controller.enqueue(encoded.slice(i, i + 16));
        controller.close();
      },
    });
    for (const init of [
      { body },
      { body: streamed },
      { body: '{}', headers: { 'content-length': '101' } },
    ]) {
      const res = await call(emulator, 'POST', RULES, init);
      expect(res.status).toBe(413);
      expect(res.json.error).toMatchObject({ code: 413 });
      expect(res.json.error.errors[0].reason).toBe('payloadTooLarge');
      expect(res.json.error.message).toContain('100 bytes');
    }
    expect(itemNames((await list(emulator)).json)).toEqual([]);
  });

  it('a body of exactly bodyLimit bytes is read', async () => {
    const body = JSON.stringify(rule('fr-1'));
    const emulator = await createEmulator({ bodyLimit: new TextEncoder().encode(body).length });
    expect((await call(emulator, 'POST', RULES, { body })).status).toBe(200);
  });

  it('the default limit is 1 MiB', async () => {
    const emulator = await createEmulator();
    const body = JSON.stringify(rule('fr-1', { description: 'x'.repeat(1024 * 1024) }));
    expect((await call(emulator, 'POST', RULES, { body })).status).toBe(413);
  });
});

describe('not found', () => {
  it.each([
    ['GET', '/compute/v1/projects/p/regions/r/unknownCollection'],
    ['GET', '/compute/v1/projects/p/global/addresses'],
    ['GET', '/compute/v2/projects/p/regions/r/forwardingRules'],
    ['GET', '/'],
    ['PUT', RULES],
    ['GET', '/_listkit/nothing'],
  ])('%s %s answers 404 in the Compute envelope', async (method, path) => {
    const emulator = await createEmulator();
    const res = await call(emulator, method, path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.json).toEqual({
      error: {
        code: 404,
        message: `The requested URL ${path} was not found on this server.`,
        errors: [
          {
            domain: 'global',
            reason: 'notFound',
            message: `The requested URL ${path} was not found on this server.`,
          },
        ],
      },
    });
  });
});

describe('the list answer', () => {
  it('when empty: kind, id and selfLink, no items and no nextPageToken', async () => {
    const emulator = await createEmulator();
    const res = await list(emulator);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      kind: 'compute#forwardingRuleList',
      id: 'projects/p/regions/r/forwardingRules',
      selfLink: `${BASE}projects/p/regions/r/forwardingRules`,
    });
  });

  it('pages until a last page without nextPageToken', async () => {
    const emulator = await createEmulator({ seed: seedOf(7) });
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const query = new URLSearchParams({ maxResults: '3' });
      if (token) query.set('pageToken', token);
      const res = await list(emulator, `?${query}`);
      expect(res.json.kind).toBe('compute#forwardingRuleList');
      expect(res.json.id).toBe('projects/p/regions/r/forwardingRules');
      expect(res.json.selfLink).toBe(`${BASE}projects/p/regions/r/forwardingRules`);
      seen.push(...itemNames(res.json));
      token = res.json.nextPageToken;
      pages++;
    } while (token && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(seedOf(7).forwardingRules!.map((r) => r.rule.name));
  });

  it('an exactly full last page has no nextPageToken', async () => {
    const emulator = await createEmulator({ seed: seedOf(6) });
    const first = await list(emulator, '?maxResults=3');
    expect(first.json.nextPageToken).toEqual(expect.any(String));
    const second = await list(
      emulator,
      `?maxResults=3&pageToken=${encodeURIComponent(first.json.nextPageToken)}`,
    );
    expect(second.json.items).toHaveLength(3);
    expect(second.json).not.toHaveProperty('nextPageToken');
  });

  it('a filter that matches nothing answers no items key', async () => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const res = await list(emulator, `?${new URLSearchParams({ filter: 'name = nothing' })}`);
    expect(res.status).toBe(200);
    expect(res.json).not.toHaveProperty('items');
  });
});

describe('list errors', () => {
  it.each([
    '(((',
    'nosuchfield = 1',
    'IPProtocol = NOPE',
    'name = "unterminated',
    'creationTimestamp > "yesterday"',
    'name eq "(" ',
  ])('a bad filter %j is 400 at filter', async (filter) => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const res = await list(emulator, `?${new URLSearchParams({ filter })}`);
    expectInvalid(res, 'filter');
    expect(res.json.error.message).toContain(`Invalid value for field 'filter': '${filter}'`);
  });

  it('quotes at most the first 200 characters of a long bad filter', async () => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const filter = `name = "${'a'.repeat(8000)}`;
    const res = await list(emulator, `?${new URLSearchParams({ filter })}`);
    expectInvalid(res, 'filter');
    expect(res.json.error.message).toContain(
      `Invalid value for field 'filter': '${filter.slice(0, 200)}…' (8008 characters). Invalid list filter expression: `,
    );
    // The envelope says the message twice; the whole answer stays small.
    expect(res.text.length).toBeLessThan(2000);
  });

  it.each([
    // ~5 KB: 715 alternatives of `.{n}`, ~460,000 instructions (each one ~40 MB, kept by the cache)
    [
      '700 .{n} alternatives',
      `name eq "(${Array.from({ length: 715 }, (_, i) => `.{${1000 - i}}`).join('|')})q17"`,
    ],
    // 200 terms of a pattern whose classes weigh 782,000 units
    ['200 (?i)(\\pL|\\pN){1000} terms', '(name eq "(?i)(\\pL|\\pN){1000}")'.repeat(200)],
  ])(
    'a regex whose compiled program is too large (%s) is 400 naming the pattern',
    async (_, filter) => {
      const emulator = await createEmulator({ seed: seedOf(3) });
      const res = await list(emulator, `?${new URLSearchParams({ filter })}`);
      expectInvalid(res, 'filter');
      expect(res.json.error.message).toMatch(
        /RE2 pattern "[^"]+" .*compiles to a program of (at least )?\d+ instructions, more than the limit of 100000 \(regex_too_large at 1:(9|10)\)$/,
      );
    },
  );

  it.each(['nosuchfield', 'description', 'name desc, name', 'creationTimestamp'])(
    'an orderBy Compute does not support (%j) is 400 at orderBy',
    async (orderBy) => {
      const emulator = await createEmulator({ seed: seedOf(3) });
      expectInvalid(await list(emulator, `?${new URLSearchParams({ orderBy })}`), 'orderBy');
    },
  );

  it('a bad pageToken is 400 at pageToken: garbage, tampered, or from another query', async () => {
    const emulator = await createEmulator({ seed: seedOf(10) });
    const first = await list(emulator, '?maxResults=2');
    const token: string = first.json.nextPageToken;
    const flipped = token.slice(0, -3) + (token.at(-3) === 'A' ? 'B' : 'A') + token.slice(-2);
    for (const [query, path] of [
      ['?pageToken=garbage', RULES],
      [`?pageToken=${encodeURIComponent(flipped)}`, RULES],
      [`?maxResults=2&filter=name%3Dfr-*&pageToken=${encodeURIComponent(token)}`, RULES],
      [
        `?maxResults=2&orderBy=creationTimestamp+desc&pageToken=${encodeURIComponent(token)}`,
        RULES,
      ],
      [
        `?maxResults=2&pageToken=${encodeURIComponent(token)}`,
        '/compute/v1/projects/q/regions/r/forwardingRules',
      ],
      [
        `?maxResults=2&pageToken=${encodeURIComponent(token)}`,
        '/compute/v1/projects/p/regions/s/forwardingRules',
      ],
    ] as const) {
      expectInvalid(await call(emulator, 'GET', path + query), 'pageToken');
    }
    // The token itself still works for its own query.
    const second = await list(emulator, `?maxResults=2&pageToken=${encodeURIComponent(token)}`);
    expect(itemNames(second.json)).toEqual(['fr-0002', 'fr-0003']);
  });

  it('a forwarding-rules token is refused by the operations list of the same region', async () => {
    const emulator = await createEmulator({ seed: seedOf(5) });
    for (let i = 0; i < 5; i++) await insert(emulator, rule(`op-${i}`));
    const token = (await list(emulator, '?maxResults=2')).json.nextPageToken;
    const res = await call(
      emulator,
      'GET',
      `${REGION}/operations?maxResults=2&pageToken=${encodeURIComponent(token)}`,
    );
    expectInvalid(res, 'pageToken');
    expect(res.json.error.message).toContain('belongs to a different query');
    const opsToken = (await call(emulator, 'GET', `${REGION}/operations?maxResults=2`)).json
      .nextPageToken;
    expectInvalid(await list(emulator, `?pageToken=${encodeURIComponent(opsToken)}`), 'pageToken');
  });

  it('quotes at most 40 characters of a bad page token', async () => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const token = 'A'.repeat(15_000);
    const response = await emulator.fetch(
      new Request(`${ORIGIN}${RULES}?pageToken=${token}`, {
        headers: { authorization: 'Bearer tok' },
      }),
    );
    const body = await response.text();
    expect(response.status).toBe(400);
    expect(body.length).toBeLessThan(1_000);
    expect(JSON.parse(body).error.message).toBe(
      `Invalid value for field 'pageToken': '${'A'.repeat(40)}…' (15000 characters). the page token is malformed (unknown version)`,
    );
  });

  it('page tokens of one emulator are refused by another with other secrets', async () => {
    const a = await createEmulator({
      seed: seedOf(5),
      pageTokenSecrets: ['secret-a-0123456789abcdef'],
    });
    const b = await createEmulator({
      seed: seedOf(5),
      pageTokenSecrets: ['secret-b-0123456789abcdef'],
    });
    const token = (await list(a, '?maxResults=2')).json.nextPageToken;
    expectInvalid(
      await list(b, `?maxResults=2&pageToken=${encodeURIComponent(token)}`),
      'pageToken',
    );
    const shared = await createEmulator({
      seed: seedOf(5),
      pageTokenSecrets: ['secret-a-0123456789abcdef'],
    });
    expect(
      (await list(shared, `?maxResults=2&pageToken=${encodeURIComponent(token)}`)).status,
    ).toBe(200);
  });
});

describe('project and region path segments', () => {
  const longName = 'a'.repeat(10_000);
  it.each([
    ['project a%00b', '/compute/v1/projects/a%00b/regions/r/forwardingRules', 'project'],
    ['project with %2F', '/compute/v1/projects/a%2Fb/regions/r/forwardingRules', 'project'],
    ['a 10 KB project', `/compute/v1/projects/${longName}/regions/r/forwardingRules`, 'project'],
    ['project in capitals', '/compute/v1/projects/MyProject/regions/r/forwardingRules', 'project'],
    ['region a%00b', '/compute/v1/projects/p/regions/a%00b/forwardingRules', 'region'],
    ['region with %2F', '/compute/v1/projects/p/regions/us%2Fcentral1/forwardingRules', 'region'],
    ['a 10 KB region', `/compute/v1/projects/p/regions/${longName}/forwardingRules`, 'region'],
    ['region ending in -', '/compute/v1/projects/p/regions/us-/forwardingRules', 'region'],
    ['region of an operation', '/compute/v1/projects/p/regions/r%2Fx/operations/op', 'region'],
    [
      'project of the aggregated list',
      '/compute/v1/projects/a%00b/aggregated/forwardingRules',
      'project',
    ],
  ])('%s is 400 at that field and stores nothing', async (_, path, field) => {
    const emulator = await createEmulator();
    const res = await call(emulator, 'POST', path, { body: JSON.stringify(rule('fr-1')) });
    expect(res.status).toBe(400);
    expect(res.json.error.errors[0]).toMatchObject({ reason: 'invalidParameter', location: field });
    expect(res.json.error.message.length).toBeLessThan(400);
    const read = await call(emulator, 'GET', path);
    expect(read.status).toBe(400);
    expect(await emulator.state.forwardingRules.all()).toEqual([]);
    expect(await emulator.state.operations.all()).toEqual([]);
  });

  it.each(['my-project', '123456789012', 'example.com:my-project', 'p'])(
    'project %s is accepted',
    async (project) => {
      const emulator = await createEmulator();
      const res = await call(
        emulator,
        'GET',
        `/compute/v1/projects/${project}/regions/us-central1/forwardingRules`,
      );
      expect(res.status).toBe(200);
    },
  );
});

describe('request size', () => {
  it('a 100 KB query string is 414 in the error envelope, embedded or over HTTP', async () => {
    const emulator = await createEmulator({ seed: seedOf(3) });
    const query = `?filter=${'a'.repeat(100_000)}`;
    const embedded = await list(emulator, query);
    expect(embedded.status).toBe(414);
    expect(embedded.json.error.message).toContain('at most 65536');
    const url = await emulator.listen(0);
    try {
      const res = await fetch(`${url}${RULES}${query}`, { headers: { authorization: 'Bearer x' } });
      expect(res.status).toBe(414);
      expect((await res.json()).error.code).toBe(414);
      // A URL just under the limit is answered normally (here: a filter too long, 400).
      const long = await fetch(`${url}${RULES}?filter=${'a'.repeat(60_000)}`, {
        headers: { authorization: 'Bearer x' },
      });
      expect(long.status).toBe(400);
      // Past Node's header limit the connection is answered, not reset.
      const huge = await fetch(`${url}${RULES}?filter=${'a'.repeat(1_100_000)}`, {
        headers: { authorization: 'Bearer x' },
      });
      expect(huge.status).toBe(431);
      expect((await huge.json()).error.code).toBe(431);
    } finally {
      await emulator.close();
    }
  });
});

describe('requestId', () => {
  it.each([
    'not-a-uuid',
    '123e4567e89b12d3a456426614174000',
    '123e4567-e89b-12d3-a456-42661417400',
    '123e4567-e89b-12d3-a456-4266141740000',
    'g23e4567-e89b-12d3-a456-426614174000',
    '{123e4567-e89b-12d3-a456-426614174000}',
    '00000000-0000-0000-0000-000000000000',
  ])('rejects requestId=%s with 400 at requestId and creates nothing', async (requestId) => {
    const emulator = await createEmulator();
    const res = await insert(emulator, rule('fr-1'), `?requestId=${encodeURIComponent(requestId)}`);
    expectInvalid(res, 'requestId');
    expect(res.json.error.message).toContain(requestId);
    expect(itemNames((await list(emulator)).json)).toEqual([]);
  });

  it.each([
    '123e4567-e89b-12d3-a456-426614174000',
    '123E4567-E89B-12D3-A456-426614174000',
    '00000000-0000-0000-0000-000000000001',
    '',
  ])('accepts requestId=%j', async (requestId) => {
    const emulator = await createEmulator();
    const res = await insert(emulator, rule('fr-1'), `?requestId=${requestId}`);
    expect(res.status).toBe(200);
    expect(res.json.operationType).toBe('insert');
  });

  it('without requestId, a second insert of one name is 409', async () => {
    const emulator = await createEmulator();
    expect((await insert(emulator, rule('fr-1'))).status).toBe(200);
    const again = await insert(emulator, rule('fr-1'));
    expect(again.status).toBe(409);
    expect(again.json.error.message).toBe(
      "The resource 'projects/p/regions/r/forwardingRules/fr-1' already exists",
    );
  });
});

describe('the baseUrl option', () => {
  it.each<[string, EmulatorOptions['baseUrl'], string]>([
    ['default', undefined, BASE],
    [
      'with a trailing slash',
      'http://127.0.0.1:8080/compute/v1/',
      'http://127.0.0.1:8080/compute/v1/',
    ],
    ['without a trailing slash', 'http://localhost:9/compute/v1', 'http://localhost:9/compute/v1/'],
  ])('changes every link (%s)', async (_, baseUrl, base) => {
    const emulator = await createEmulator({ baseUrl });
    const op = (await insert(emulator, rule('fr-1', { target: 'regions/r/targetPools/pool' })))
      .json;
    expect(op.selfLink).toBe(`${base}projects/p/regions/r/operations/${op.name}`);
    expect(op.region).toBe(`${base}projects/p/regions/r`);
    expect(op.targetLink).toBe(`${base}projects/p/regions/r/forwardingRules/fr-1`);
    const created = (await call(emulator, 'GET', `${RULES}/fr-1`)).json;
    expect(created.selfLink).toBe(`${base}projects/p/regions/r/forwardingRules/fr-1`);
    expect(created.selfLinkWithId).toBe(
      `${base}projects/p/regions/r/forwardingRules/${created.id}`,
    );
    expect(created.region).toBe(`${base}projects/p/regions/r`);
    expect(created.target).toBe(`${base}projects/p/regions/r/targetPools/pool`);
    const listed = (await list(emulator)).json;
    expect(listed.selfLink).toBe(`${base}projects/p/regions/r/forwardingRules`);
    expect(listed.items[0].selfLink).toBe(created.selfLink);
    const ops = (await call(emulator, 'GET', `${REGION}/operations`)).json;
    expect(ops.selfLink).toBe(`${base}projects/p/regions/r/operations`);
    expect(ops.items[0].selfLink).toBe(op.selfLink);
    const read = (await call(emulator, 'GET', `${REGION}/operations/${op.name}`)).json;
    expect(read.selfLink).toBe(op.selfLink);
    const del = (await call(emulator, 'DELETE', `${RULES}/fr-1`)).json;
    expect(del.targetLink).toBe(created.selfLink);
    expect(del.region).toBe(`${base}projects/p/regions/r`);
  });

  it('applies to seeded rules as well', async () => {
    const emulator = await createEmulator({
      baseUrl: 'http://emu.test/compute/v1/',
      seed: seedOf(1),
    });
    const seeded = (await call(emulator, 'GET', `${RULES}/fr-0000`)).json;
    expect(seeded.selfLink).toBe(
      'http://emu.test/compute/v1/projects/p/regions/r/forwardingRules/fr-0000',
    );
    expect(seeded.region).toBe('http://emu.test/compute/v1/projects/p/regions/r');
  });
});
