// A page of 500 as real clients ask for it, on loopback. The Google Node clients (googleapis
// and @google-cloud/compute) send their requests through gaxios, which uses node-fetch: it asks
// for `gzip, deflate, br`, decompresses the stream and parses the JSON. Google's APIs gzip only
// for a client whose User-Agent also says `gzip`: googleapis' does, @google-cloud/compute's does
// not (recorded headers below), and the emulator answers as they do.
// This bench is that client (gaxios, resolved from googleapis as googleapis loads it) in this
// process, sending each client's recorded headers, against the built emulator in a child process
// (as a real client and emulator are: each with its own event loop and its own libuv thread
// pool, where zlib's asynchronous work runs), one request at a time, five ways page by page in
// rotation, over the same pages of one region:
//
//   identity                 the client asks for `identity`: the page as the emulator writes it
//   @google-cloud/compute    its headers (answered identity, as Compute answers it)
//   googleapis, first answer its headers (gzip), each page asked for the first time
//   googleapis, again        the same pages asked for again (the compressed prefix cached)
//   googleapis, no cache     from an emulator with `compression: { cacheBytes: 0 }` (every
//                            page compressed whole, as before the cache)
//
// and ways to split the cost: the same client against a bare node:http server in the child
// that answers precomputed bytes (identity, gzip level 1, gzip of stored blocks, or the
// emulator's own gzip answer, the peer of issue 38's gzip row: the client's
// own cost of decompressing, and how much of it is inflating), the client's zlib stream alone
// over the page with 16 KiB and 256 KiB output chunks, and the emulator's answer inside the child without a socket
// (`emulator.fetch` plus reading the body in the child: the server's cost of compressing).
// Prints; never asserts. Knobs: BENCH_GZIP_RULES (default 20000), BENCH_GZIP_ROUNDS (3),
// BENCH_GZIP_SERVICE (the service module to import, such as another build's
// packages/service/dist/index.js, to time that build the same way).

import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { constants, createGunzip, gzipSync } from 'node:zlib';

const RULES = Number(process.env.BENCH_GZIP_RULES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_GZIP_ROUNDS ?? 3);
const PROJECT = 'my-project';
const REGION = 'us-central1';
const LIST = `/compute/v1/projects/${PROJECT}/regions/${REGION}/forwardingRules`;
const AUTH = { authorization: 'Bearer x' };
const ORDERS = ['', 'creationTimestamp desc'];
// What each client sends besides authorization (docs: reference/real-clients, recorded).
const CLIENTS = {
  identity: { 'accept-encoding': 'identity' },
  compute: {
    'accept-encoding': 'gzip, deflate, br',
    'user-agent': 'google-api-nodejs-client/11.3.4',
  },
  googleapis: {
    'accept-encoding': 'gzip',
    'user-agent': 'google-api-nodejs-client/8.0.3 (gzip)',
  },
};

const now = () => performance.now();
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n, d = 2) => n.toFixed(d);

if (process.env.BENCH_GZIP_CHILD === '1') await serverProcess();
else await main();

async function serverProcess() {
  const { createEmulator, sampleForwardingRules } = await import(
    process.env.BENCH_GZIP_SERVICE ?? '@listkit/service'
  );
  const regionUrl = `https://www.googleapis.com/compute/v1/projects/${PROJECT}/regions/${REGION}`;
  const seed = {
    forwardingRules: sampleForwardingRules(RULES, { project: PROJECT }).map((rule) => ({
      project: PROJECT,
      region: REGION,
      rule: { ...rule, region: regionUrl },
    })),
  };
  const cached = await createEmulator({ seed });
  const uncached = await createEmulator({ seed, compression: { cacheBytes: 0 } });
  const cachedUrl = await cached.listen(0, '127.0.0.1');
  const uncachedUrl = await uncached.listen(0, '127.0.0.1');
  const firstPage = `${cachedUrl}${LIST}?maxResults=500`;
  const uncachedFirstPage = `${uncachedUrl}${LIST}?maxResults=500`;
  const plain = Buffer.from(
    await (await cached.fetch(new Request(firstPage, { headers: AUTH }))).arrayBuffer(),
  );
  const zipped = gzipSync(plain, { level: 1 });
  // The emulator's own gzip answer to googleapis, as sent (the peer of issue 38's gzip row).
  await cached.fetch(new Request(firstPage, { headers: { ...AUTH, ...CLIENTS.googleapis } }));
  const emulatorZipped = Buffer.from(
    await (
      await cached.fetch(new Request(firstPage, { headers: { ...AUTH, ...CLIENTS.googleapis } }))
    ).arrayBuffer(),
  );
  // Stored blocks: gzip that inflates at copying speed, to tell inflating from the stream's cost.
  const stored = gzipSync(plain, { level: 0 });
  const bare = createServer((req, res) => {
    const gzip = /gzip/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'content-type': 'application/json; charset=UTF-8',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    const gzipped = { '/stored': stored, '/emulator': emulatorZipped }[req.url] ?? zipped;
    res.end(gzip ? gzipped : plain);
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const handlers = {
    /** ms per in-process answer of the first page (fetch + body), medians, ways in rotation. */
    async inProcess({ rounds }) {
      const ways = {
        identity: () =>
          cached.fetch(new Request(firstPage, { headers: { ...AUTH, ...CLIENTS.identity } })),
        'gzip, cached prefix': () =>
          cached.fetch(new Request(firstPage, { headers: { ...AUTH, ...CLIENTS.googleapis } })),
        'gzip, no cache': () =>
          uncached.fetch(
            new Request(uncachedFirstPage, { headers: { ...AUTH, ...CLIENTS.googleapis } }),
          ),
      };
      const times = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
      for (let i = 0; i < 20 + rounds; i++) {
        for (const [name, way] of Object.entries(ways)) {
          const start = now();
          await (await way()).arrayBuffer();
          if (i >= 20) times[name].push(now() - start);
        }
      }
      return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
    },
  };
  process.on('message', async ({ id, type, ...args }) => {
    process.send({ id, result: await handlers[type](args) });
  });
  process.send({
    type: 'ready',
    cachedUrl,
    uncachedUrl,
    bareUrl: `http://127.0.0.1:${bare.address().port}`,
    pageBytes: plain.length,
    zippedBytes: zipped.length,
    emulatorZippedBytes: emulatorZipped.length,
    zipped: zipped.toString('base64'),
  });
}

async function main() {
  // gaxios as googleapis loads it (googleapis → googleapis-common → gaxios).
  const fromGoogleapis = createRequire(createRequire(import.meta.url).resolve('googleapis'));
  const fromCommon = createRequire(fromGoogleapis.resolve('googleapis-common'));
  const { Gaxios } = await import(fromCommon.resolve('gaxios'));
  const gaxios = new Gaxios();
  const get = async (url, client) => {
    const res = await gaxios.request({
      url,
      headers: { ...AUTH, ...CLIENTS[client] },
      responseType: 'json',
    });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    return res;
  };
  const encodingOf = (res) =>
    res.headers.get?.('content-encoding') ?? res.headers['content-encoding'];

  const child = fork(new URL(import.meta.url), [], {
    env: { ...process.env, BENCH_GZIP_CHILD: '1' },
  });
  let nextId = 0;
  const pending = new Map();
  const info = await new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (m.type === 'ready') return resolve(m);
      pending.get(m.id)?.(m.result);
      pending.delete(m.id);
    });
    child.on('error', reject);
  });
  const call = (type, args = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ id, type, ...args });
    });

  // The page URLs of each ordering on each emulator (tokens are each emulator's own): follow
  // nextPageToken once, as identity (nothing cached).
  const walkUrls = async (origin) => {
    const urls = [];
    for (const orderBy of ORDERS) {
      const query = `maxResults=500${orderBy ? `&orderBy=${encodeURIComponent(orderBy)}` : ''}`;
      let token;
      do {
        const path = `${LIST}?${query}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
        urls.push(origin + path);
        token = (await get(origin + path, 'identity')).data.nextPageToken;
      } while (token);
    }
    return urls;
  };
  const cachedUrls = await walkUrls(info.cachedUrl);
  const uncachedUrls = await walkUrls(info.uncachedUrl);
  const urls = cachedUrls.map((url, i) => [url, uncachedUrls[i]]);
  const ways = [
    'identity',
    '@google-cloud/compute',
    'googleapis, first answer',
    'googleapis, again',
    'googleapis, no cache',
  ];
  const times = Object.fromEntries(ways.map((w) => [w, []]));
  const time = async (way, url, client) => {
    const start = now();
    const res = await get(url, client);
    times[way].push(now() - start);
    return res;
  };
  const started = now();
  for (const [i, [url, other]] of urls.entries()) {
    // The first gzip answer of each page comes first; then the others in rotation, and the page
    // again last (its prefix now cached).
    const first = await time('googleapis, first answer', url, 'googleapis');
    if (encodingOf(first) !== 'gzip') throw new Error('the emulator did not gzip for googleapis');
    const middle = [
      () => time('identity', url, 'identity'),
      async () => {
        const res = await time('@google-cloud/compute', url, 'compute');
        if (encodingOf(res)) throw new Error('the emulator gzipped for @google-cloud/compute');
      },
      () => time('googleapis, no cache', other, 'googleapis'),
    ];
    for (let k = 0; k < middle.length; k++) await middle[(k + i) % middle.length]();
    await time('googleapis, again', url, 'googleapis');
  }
  // More samples of the ways that can repeat, rotated page by page.
  for (let round = 1; round < ROUNDS; round++) {
    for (const [i, [url, other]] of urls.entries()) {
      const order = [
        () => time('identity', url, 'identity'),
        () => time('@google-cloud/compute', url, 'compute'),
        () => time('googleapis, again', url, 'googleapis'),
        () => time('googleapis, no cache', other, 'googleapis'),
      ];
      for (let k = 0; k < order.length; k++) await order[(k + i) % order.length]();
    }
  }
  const walkSeconds = (now() - started) / 1000;
  // The client alone: the same client against precomputed bytes (the bare server).
  const bare = { identity: [], gzip: [], stored: [], emulator: [] };
  const bareWays = [
    ['identity', '', 'identity'],
    ['gzip', '', 'googleapis'],
    ['stored', '/stored', 'googleapis'],
    ['emulator', '/emulator', 'googleapis'],
  ];
  for (let i = 0; i < 60; i++) {
    for (let k = 0; k < bareWays.length; k++) {
      const [way, path, client] = bareWays[(i + k) % bareWays.length];
      const start = now();
      await get(info.bareUrl + path, client);
      if (i >= 10) bare[way].push(now() - start);
    }
  }
  // The client's inflating stream alone (node-fetch's zlib options), over the page's gzip bytes
  // in 64 KiB reads: with zlib's 16 KiB output chunks, as node-fetch has it, and with 256 KiB.
  const pageZipped = Buffer.from(info.zipped, 'base64');
  const inflate = async (chunkSize) => {
    const gunzip = createGunzip({
      flush: constants.Z_SYNC_FLUSH,
      finishFlush: constants.Z_SYNC_FLUSH,
      ...(chunkSize ? { chunkSize } : {}),
    });
    const reads = function* () {
      for (let at = 0; at < pageZipped.length; at += 65_536)
        yield pageZipped.subarray(at, at + 65_536);
    };
    Readable.from(reads()).pipe(gunzip);
    let chunks = 0;
    for await (const _ of gunzip) chunks++;
    return chunks;
  };
  const stream = { 16384: [], 262144: [] };
  const streamChunks = {};
  for (let i = 0; i < 110; i++) {
    for (const size of i % 2 ? [16_384, 262_144] : [262_144, 16_384]) {
      const start = now();
      streamChunks[size] = await inflate(size);
      if (i >= 10) stream[size].push(now() - start);
    }
  }
  const server = await call('inProcess', { rounds: 40 });
  const identity = median(times.identity);
  console.log(
    `\n### A page of 500 as real clients ask for it (gaxios / node-fetch, one request at a time, ${RULES} rules, ${urls.length} pages in ${ORDERS.length} orderings)\n`,
  );
  console.log(
    `Page: ${fmt(info.pageBytes / 1e3, 1)} kB, ${fmt(info.zippedBytes / 1e3, 1)} kB as gzip level 1. Walks took ${fmt(walkSeconds, 1)} s.\n`,
  );
  console.log('| request | ms per page (median) | pages timed | / identity | aim (≤ 1.3x) |');
  console.log('|:---|---:|---:|---:|---:|');
  for (const way of ways) {
    const m = median(times[way]);
    const r = m / identity;
    console.log(
      `| ${way} | ${fmt(m)} | ${times[way].length} | ${fmt(r)}x | ${way === 'identity' ? '' : r <= 1.3 ? 'met' : 'missed'} |`,
    );
  }
  console.log('\n| the client alone (bare server, precomputed bytes) | ms per page | / identity |');
  console.log('|:---|---:|---:|');
  console.log(`| identity | ${fmt(median(bare.identity))} | |`);
  console.log(
    `| gzip level 1 | ${fmt(median(bare.gzip))} | ${fmt(median(bare.gzip) / median(bare.identity))}x |`,
  );
  console.log(
    `| gzip level 0 (stored blocks) | ${fmt(median(bare.stored))} | ${fmt(median(bare.stored) / median(bare.identity))}x |`,
  );
  console.log(
    `| the emulator's gzip bytes (${fmt(info.emulatorZippedBytes / 1e3, 1)} kB) | ${fmt(median(bare.emulator))} | ${fmt(median(bare.emulator) / median(bare.identity))}x |`,
  );
  // Issue 38's gzip row: the first page as googleapis asks for it (its prefix cached) against a
  // bare server sending the emulator's own gzip bytes of it to the same client, the two in
  // alternation so that both see the same load (the tables above are taken in separate phases).
  const row = { emulator: [], bare: [] };
  for (let i = 0; i < 130; i++) {
    for (const way of i % 2 ? ['emulator', 'bare'] : ['bare', 'emulator']) {
      const start = now();
      await get(way === 'emulator' ? urls[0][0] : `${info.bareUrl}/emulator`, 'googleapis');
      if (i >= 10) row[way].push(now() - start);
    }
  }
  const fastest = (xs) => Math.min(...xs);
  console.log(
    `\nIssue 38 gzip row (alternated, 120 each): googleapis / bare server with the emulator's gzip bytes = median ${fmt(median(row.emulator))} / ${fmt(median(row.bare))} ms = ${fmt(median(row.emulator) / median(row.bare))}x, fastest ${fmt(fastest(row.emulator))} / ${fmt(fastest(row.bare))} ms = ${fmt(fastest(row.emulator) / fastest(row.bare))}x (aim ≤ 1.2x)`,
  );
  console.log('\n| the inflating stream alone (the page, level 1) | ms per page | output chunks |');
  console.log('|:---|---:|---:|');
  for (const size of [16_384, 262_144]) {
    console.log(
      `| ${size / 1024} KiB output chunks | ${fmt(median(stream[size]), 3)} | ${streamChunks[size]} |`,
    );
  }
  console.log(
    '\n| the server alone (emulator.fetch + body in its thread, first page) | ms per page | / identity |',
  );
  console.log('|:---|---:|---:|');
  for (const [way, ms] of Object.entries(server)) {
    console.log(
      `| ${way} | ${fmt(ms, 3)} | ${way === 'identity' ? '' : `${fmt(ms / server.identity)}x`} |`,
    );
  }
  child.kill();
}
