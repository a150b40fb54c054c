// HTTP benchmark: list 100,000 forwarding rules in pages of 500 through the RUNNING emulator
// (the built @listkit/service on a loopback port), side by side in the same run with a bare Hono
// handler on the same HTTP stack (hono + @hono/node-server, the emulator's own dependencies) that
// answers the same URLs with the same JSON bytes, precomputed once from the emulator and served
// from a Map: the limit of the HTTP stack.
//
// The servers run in a worker thread, the load loop (Node's global fetch, N concurrent clients
// over loopback) in the main thread, so each has its own event loop and core.
// A benchmark, not a test: it prints tables and never fails on a figure.
//
// Knobs (environment): BENCH_HTTP_RULES (default 100000), BENCH_HTTP_CONCURRENCY (clients in
// the steady-state runs, default 8), BENCH_HTTP_SECONDS (length of one steady-state sample,
// default 1), BENCH_HTTP_ROUNDS (samples per steady-state case and walks per server, default 3).

import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { availableParallelism, cpus } from 'node:os';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';

const RULES = Number(process.env.BENCH_HTTP_RULES ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 8);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 1);
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 3);
const PAGE = 500;
const PROJECT = 'my-project';
const REGION = 'us-central1';
const LIST_PATH = `/compute/v1/projects/${PROJECT}/regions/${REGION}/forwardingRules`;
// fetch (undici) asks for `gzip, deflate` unless told otherwise; the page runs compare the same
// uncompressed bytes, and the compression section sets the header itself.
const HEADERS = { authorization: 'Bearer x', 'accept-encoding': 'identity' };
const HOST = '127.0.0.1';

// Bounds: every loop stops at a count and at a time.
const REQUEST_TIMEOUT_MS = 15_000;
const WALK_LIMIT_MS = 60_000;
const MAX_PAGES = Math.ceil(RULES / PAGE) + 10;
const MAX_REQUESTS_PER_SAMPLE = 200_000;
const WARMUP_SECONDS = 0.3;
const WATCHDOG_MS = 6 * 60_000;

const CASES = [
  { label: '(none)', filter: '', orderBy: '', query: '' },
  {
    label: 'filter `labels.env = prod`',
    filter: 'labels.env = prod',
    orderBy: '',
    query: '&filter=labels.env%20%3D%20prod',
  },
  {
    label: 'filter `labels.team = core`',
    filter: 'labels.team = core',
    orderBy: '',
    query: '&filter=labels.team%20%3D%20core',
  },
  {
    label: 'orderBy `creationTimestamp desc`',
    filter: '',
    orderBy: 'creationTimestamp desc',
    query: '&orderBy=creationTimestamp%20desc',
  },
];

const pageKey = (c, token) =>
  `${LIST_PATH}?maxResults=${PAGE}${c.query}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;

// ---------------------------------------------------------------------------------------------
// Harness

const now = () => performance.now();

function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (a, b) => `${fmt(a / b, 2)}x`;
const pct = (x) => `${fmt(x * 100, 0)}%`;

/** Prints a Markdown table (first column left-aligned, the rest right-aligned). */
function table(headers, rows) {
  const cells = [headers, ...rows].map((row) =>
    row.map((cell) => String(cell).replaceAll('|', '\\|')),
  );
  const widths = headers.map((_, c) => Math.max(3, ...cells.map((row) => row[c].length)));
  const line = (row) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  console.log([line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n'));
  console.log();
}

// ---------------------------------------------------------------------------------------------
// The server thread: the emulator and the bare Hono handler

/** Imports a dependency of @listkit/service (its ESM entry), as the emulator itself resolves it. */
async function importFromService(name) {
  const manifest = new URL(
    `../../packages/service/node_modules/${name}/package.json`,
    import.meta.url,
  );
  const pkg = JSON.parse(await readFile(manifest, 'utf8'));
  const entry = pkg.exports['.'].import;
  return import(new URL(typeof entry === 'string' ? entry : entry.default, manifest).href);
}

function listen(serve, fetch) {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: 0, hostname: HOST }, (info) =>
      resolve({ server, url: `http://${HOST}:${info.port}` }),
    );
    server.once('error', reject);
  });
}

/**
 * Times async ops round-robin; the FASTEST sample's milliseconds per call of each. This table
 * splits one page into parts, and on a shared 2-core machine the noise (a GC triggered by another
 * op's garbage, a descheduled thread) only ever adds time, so the lower bound is what composes.
 */
async function raceAsync(ops, { warmup = 2, runs = 9, targetMs = 10 } = {}) {
  const times = [];
  for (const op of ops) {
    let n = 1;
    for (let i = 0; i < 12; i++) {
      const start = now();
      for (let j = 0; j < n; j++) await op.fn();
      const ms = now() - start;
      if (ms >= targetMs) break;
      n *= 2;
    }
    times.push(n);
  }
  globalThis.gc?.();
  const samples = ops.map(() => []);
  for (let round = -warmup; round < runs; round++) {
    for (let i = 0; i < ops.length; i++) {
      const start = now();
      for (let j = 0; j < times[i]; j++) await ops[i].fn();
      if (round >= 0) samples[i].push((now() - start) / times[i]);
    }
  }
  return Object.fromEntries(ops.map((op, i) => [op.name, Math.min(...samples[i])]));
}

async function serverThread() {
  const { createEmulator, forwardingRuleSchema, sampleForwardingRules } = await import(
    '@listkit/service'
  );
  const { compileFilter, parseOrderBy } = await import('@listkit/query');
  const { Hono } = await importFromService('hono');
  const { serve } = await importFromService('@hono/node-server');

  // Every rule in one region, so every page but the last is full.
  const start = now();
  const regionUrl = `https://www.googleapis.com/compute/v1/projects/${PROJECT}/regions/${REGION}`;
  const rules = sampleForwardingRules(workerData.rules, { project: PROJECT });
  const seed = {
    forwardingRules: rules.map((rule) => ({
      project: PROJECT,
      region: REGION,
      rule: { ...rule, region: regionUrl },
    })),
  };
  const emulator = await createEmulator({ seed });
  const seedMs = now() - start;
  // An ordering's index is built by its first list call; build both before anything is timed.
  const indexStart = now();
  for (const orderBy of new Set(CASES.map((c) => c.orderBy))) {
    await emulator.state.forwardingRules.list(
      { project: PROJECT, region: REGION },
      { orderBy, pageSize: 1 },
    );
  }
  const indexMs = now() - indexStart;
  const emulatorUrl = await emulator.listen(0, HOST);

  // The bare handler: the precomputed bytes of each URL (path and query), from a Map.
  const bodies = new Map();
  const bare = new Hono();
  bare.get('*', (c) => {
    const url = c.req.url;
    const body = bodies.get(url.slice(url.indexOf('/', url.indexOf('//') + 2)));
    if (!body) return c.text('not precomputed', 404);
    return c.body(body, 200, { 'content-type': 'application/json' });
  });
  const bareServer = await listen(serve, bare.fetch);

  // Garbage-collection pauses of the server thread, summed, for the steady-state table.
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });

  const handlers = {
    gc: () => ({ gcMs }),
    bodies({ entries }) {
      for (const [key, buffer] of entries) bodies.set(key, new Uint8Array(buffer));
      return { count: bodies.size };
    },
    /** What one page costs inside the emulator, without the socket. */
    async breakdown({ pages }) {
      const { state } = emulator;
      const rows = [];
      for (const { label, filter, orderBy, key, token } of pages) {
        const request = {
          filter,
          orderBy,
          pageToken: token,
          pageSize: PAGE,
          context: { project: PROJECT },
        };
        const page = await state.forwardingRules.list(
          { project: PROJECT, region: REGION },
          request,
        );
        const compiled = compileFilter(filter, forwardingRuleSchema);
        const order = parseOrderBy(orderBy, forwardingRuleSchema);
        const binding = {
          parent: `projects/${PROJECT}/regions/${REGION}/forwardingRules`,
          filter: compiled.canonical,
          orderBy: order.canonical,
          context: { project: PROJECT },
        };
        // Opening the next token checks the binding is the one the collection uses.
        const next = await state.pageTokens.open(page.nextPageToken, binding);
        const get = (origin, app) => async () =>
          (await app.fetch(new Request(origin + key, { headers: HEADERS }))).arrayBuffer();
        const ops = [
          { name: 'emulator', fn: get(emulatorUrl, emulator) },
          { name: 'bare', fn: get(bareServer.url, bare) },
          {
            name: 'list',
            fn: () => state.forwardingRules.list({ project: PROJECT, region: REGION }, request),
          },
          {
            name: 'parse',
            fn: async () => {
              compileFilter(filter, forwardingRuleSchema).dispose();
              parseOrderBy(orderBy, forwardingRuleSchema);
            },
          },
          ...(token ? [{ name: 'open', fn: () => state.pageTokens.open(token, binding) }] : []),
          { name: 'seal', fn: () => state.pageTokens.seal(next, binding) },
        ];
        const ms = await raceAsync(ops);
        compiled.dispose();
        const bytes = (await get(emulatorUrl, emulator)()).byteLength;
        rows.push({ label, bytes, ms });
      }
      return rows;
    },
    async close() {
      await emulator.close();
      await new Promise((resolve) => bareServer.server.close(resolve));
      return {};
    },
  };
  parentPort.on('message', async ({ id, type, ...args }) => {
    try {
      parentPort.postMessage({ id, result: await handlers[type](args) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.stack ?? error) });
    }
  });
  parentPort.postMessage({
    type: 'ready',
    emulatorUrl,
    bareUrl: bareServer.url,
    seedMs,
    indexMs,
    rules: rules.length,
  });
}

// ---------------------------------------------------------------------------------------------
// The client thread

// Compact or indented (prettyPrint, on by default as Google's): the value's quote follows.
const TOKEN_MARK = Buffer.from('"nextPageToken":');

/** The nextPageToken of a response body, found without parsing the 400 kB of JSON. */
function nextTokenOf(bytes) {
  const at = bytes.lastIndexOf(TOKEN_MARK);
  if (at < 0) return undefined;
  const from = bytes.indexOf(0x22, at + TOKEN_MARK.length) + 1;
  return bytes.toString('latin1', from, bytes.indexOf(0x22, from));
}

const NO_BYTES = Buffer.alloc(0);

/** The body of one GET as sent on the wire (node:http does not decompress), and its encoding. */
function wireBytes(url, headers) {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** One GET; a network error or a timeout is reported as status 0, not thrown. */
async function get(url, headers = HEADERS) {
  try {
    const res = await fetch(url, {
      headers,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  } catch {
    return { status: 0, bytes: NO_BYTES };
  }
}

/** Walks the whole listing, one request at a time, following nextPageToken. */
async function walk(origin, c, onPage) {
  const latencies = [];
  let bytes = 0;
  let token;
  let failed = 0;
  const start = now();
  const deadline = start + WALK_LIMIT_MS;
  while (latencies.length < MAX_PAGES && now() < deadline) {
    const key = pageKey(c, token);
    const sent = now();
    const res = await get(origin + key);
    latencies.push(now() - sent);
    bytes += res.bytes.length;
    if (res.status !== 200) {
      failed++;
      break;
    }
    onPage?.(key, res.bytes);
    token = nextTokenOf(res.bytes);
    if (!token) break;
  }
  return {
    pages: latencies.length,
    bytes,
    ms: now() - start,
    msPerPage: median(latencies),
    complete: !token && failed === 0,
  };
}

/** Steady state: CONCURRENCY clients request one URL in a loop for `seconds`. */
async function load(worker, url, seconds, serverGcMs, headers = HEADERS) {
  let issued = 0;
  let done = 0;
  let bytes = 0;
  let failed = 0;
  const clientBusy = performance.eventLoopUtilization();
  const serverBusy = worker.performance.eventLoopUtilization();
  const gcBefore = await serverGcMs();
  const start = now();
  const deadline = start + seconds * 1000;
  const client = async () => {
    while (issued < MAX_REQUESTS_PER_SAMPLE && now() < deadline) {
      issued++;
      const res = await get(url, headers);
      if (res.status === 200) done++;
      else failed++;
      bytes += res.bytes.length;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const elapsed = (now() - start) / 1000;
  const server = worker.performance.eventLoopUtilization(serverBusy).utilization;
  const gc = ((await serverGcMs()) - gcBefore) / (elapsed * 1000);
  return {
    rps: done / elapsed,
    mbps: bytes / 1e6 / elapsed,
    failed,
    client: performance.eventLoopUtilization(clientBusy).utilization,
    server,
    gc,
    // What one fully busy server thread would answer: the server's ceiling even when the
    // client is the bottleneck (the client thread saturates first against the bare handler).
    capacity: done / elapsed / server,
  };
}

async function main() {
  const watchdog = setTimeout(() => {
    console.log(`\nStopped: the benchmark ran longer than ${WATCHDOG_MS / 60_000} minutes.`);
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();

  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`# listkit HTTP benchmark (pages of ${PAGE})`);
  console.log();
  console.log(
    `Node ${process.version}, ${availableParallelism()} cores (${cpu}), ${RULES.toLocaleString('en-US')} rules in one region, ${CONCURRENCY} concurrent clients, ${SECONDS} s per steady-state sample, ${ROUNDS} samples (median). MB = 10^6 bytes of response body.`,
  );
  console.log();

  const worker = new Worker(new URL(import.meta.url), { workerData: { rules: RULES } });
  let nextId = 0;
  const pending = new Map();
  const ready = new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.type === 'ready') return resolve(message);
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.result);
    });
    worker.once('error', reject);
  });
  const call = (type, args = {}, transfer = []) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, type, ...args }, transfer);
    });

  try {
    const info = await ready;
    console.log(
      `Seeded the emulator with ${info.rules.toLocaleString('en-US')} rules in ${fmt(info.seedMs / 1000, 1)} s and built its 2 orderings in ${fmt(info.indexMs / 1000, 1)} s (emulator ${info.emulatorUrl}, bare Hono ${info.bareUrl}).`,
    );
    console.log();

    // 1. Precompute: walk every listing once through the emulator (this also warms it up) and
    // hand each page's bytes to the bare handler.
    let start = now();
    const chains = [];
    for (const c of CASES) {
      const keys = [];
      const entries = [];
      const result = await walk(info.emulatorUrl, c, (key, bytes) => {
        keys.push(key);
        const copy = new Uint8Array(bytes.length);
        copy.set(bytes);
        entries.push([key, copy.buffer]);
      });
      await call(
        'bodies',
        { entries },
        entries.map(([, buffer]) => buffer),
      );
      if (!result.complete) {
        console.log(
          `SKIPPED ${c.label}: the emulator walk stopped after ${result.pages} pages (an error or a timeout).`,
        );
        continue;
      }
      chains.push({ ...c, keys, bytes: result.bytes, complete: result.complete });
    }
    console.log(
      `Precomputed ${chains.reduce((n, c) => n + c.keys.length, 0)} page bodies (${fmt(chains.reduce((n, c) => n + c.bytes, 0) / 1e6, 1)} MB) from the emulator in ${fmt((now() - start) / 1000, 1)} s.`,
    );
    console.log();

    // 2. Full walks, one request at a time, emulator and bare interleaved.
    start = now();
    const servers = [
      ['emulator', info.emulatorUrl],
      ['bare', info.bareUrl],
    ];
    const walkRows = [];
    const checks = [];
    for (const c of chains) {
      const results = { emulator: [], bare: [] };
      globalThis.gc?.();
      for (let round = -1; round < ROUNDS; round++) {
        const order = round % 2 ? servers : [...servers].reverse();
        for (const [name, origin] of order) {
          const result = await walk(origin, c);
          if (round >= 0) results[name].push(result);
        }
      }
      const pick = (name) => {
        const rs = results[name];
        return {
          msPerPage: median(rs.map((r) => r.msPerPage)),
          ms: median(rs.map((r) => r.ms)),
          pages: rs[0].pages,
          bytes: rs[0].bytes,
          complete: rs.every((r) => r.complete),
        };
      };
      const emu = pick('emulator');
      const bare = pick('bare');
      walkRows.push([
        c.label,
        emu.pages,
        fmt(emu.bytes / 1e6, 1),
        fmt(emu.msPerPage, 2),
        fmt(bare.msPerPage, 2),
        ratio(emu.msPerPage, bare.msPerPage),
        fmt(emu.ms, 0),
        fmt(bare.ms, 0),
        fmt((emu.pages / emu.ms) * 1000, 0),
        fmt((bare.pages / bare.ms) * 1000, 0),
        fmt(emu.bytes / 1e3 / emu.ms, 1),
        fmt(bare.bytes / 1e3 / bare.ms, 1),
      ]);
      checks.push([
        c.label,
        `${c.keys.length} / ${emu.pages} / ${bare.pages}`,
        `${c.bytes} / ${emu.bytes} / ${bare.bytes}`,
        c.complete && emu.complete && bare.complete ? 'yes' : 'NO',
      ]);
    }
    console.log('## Full walks (one client, follow nextPageToken to the end)');
    console.log();
    table(
      [
        'case',
        'pages',
        'MB',
        'emulator ms/page',
        'bare ms/page',
        'ms/page emulator/bare',
        'emulator walk ms',
        'bare walk ms',
        'emulator req/s',
        'bare req/s',
        'emulator MB/s',
        'bare MB/s',
      ],
      walkRows,
    );
    console.log('Pages and body bytes (precomputed / emulator walk / bare walk):');
    console.log();
    table(['case', 'pages', 'bytes', 'every walk reached the end'], checks);
    console.log(`(section took ${fmt((now() - start) / 1000, 1)} s)`);
    console.log();

    const serverGcMs = async () => (await call('gc')).gcMs;

    // 3. Steady state on the first page and on a deep page, emulator and bare interleaved.
    start = now();
    const loadRows = [];
    const breakdownPages = [];
    /** Emulator req/s per busy second and latency, by case and page (first / deep). */
    const capacity = new Map();
    for (const c of chains) {
      const deep = Math.floor((c.keys.length * 3) / 4);
      const targets = [
        { label: 'first', key: c.keys[0] },
        { label: `deep (${deep + 1} of ${c.keys.length})`, key: c.keys[deep] },
      ];
      for (const target of targets) {
        const token = new URLSearchParams(target.key.split('?')[1]).get('pageToken') ?? undefined;
        breakdownPages.push({
          label: `${c.label}, ${target.label}`,
          filter: c.filter,
          orderBy: c.orderBy,
          key: target.key,
          token,
        });
        for (const [, origin] of servers) {
          await load(worker, origin + target.key, WARMUP_SECONDS, serverGcMs);
        }
        const results = { emulator: [], bare: [] };
        globalThis.gc?.();
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 ? [...servers].reverse() : servers;
          for (const [name, origin] of order) {
            results[name].push(await load(worker, origin + target.key, SECONDS, serverGcMs));
          }
        }
        const m = (name, field) => median(results[name].map((r) => r[field]));
        const failed = [...results.emulator, ...results.bare].reduce((n, r) => n + r.failed, 0);
        capacity.set(`${c.label}|${target.label.split(' ')[0]}`, m('emulator', 'capacity'));
        loadRows.push([
          c.label,
          target.label,
          fmt(m('emulator', 'rps'), 0),
          fmt(m('bare', 'rps'), 0),
          ratio(m('emulator', 'rps'), m('bare', 'rps')),
          fmt(m('emulator', 'mbps'), 1),
          fmt(m('bare', 'mbps'), 1),
          `${pct(m('emulator', 'server'))} / ${pct(m('bare', 'server'))}`,
          `${pct(m('emulator', 'client'))} / ${pct(m('bare', 'client'))}`,
          `${pct(m('emulator', 'gc'))} / ${pct(m('bare', 'gc'))}`,
          fmt(m('emulator', 'capacity'), 0),
          fmt(m('bare', 'capacity'), 0),
          ratio(m('emulator', 'capacity'), m('bare', 'capacity')),
          failed,
        ]);
      }
    }
    console.log(`## Steady state (${CONCURRENCY} concurrent clients on one URL)`);
    console.log();
    console.log(
      "`busy` is the event-loop utilisation of the server thread and of the client thread during the sample (emulator / bare); `server GC` is the share of the sample the server thread spent in garbage-collection pauses. `req/s per busy s` is req/s divided by the server thread's utilisation: what one fully busy server thread answers, the server's ceiling even where the client thread saturates first.",
    );
    console.log();
    table(
      [
        'case',
        'page',
        'emulator req/s',
        'bare req/s',
        'req/s emulator/bare',
        'emulator MB/s',
        'bare MB/s',
        'server busy',
        'client busy',
        'server GC',
        'emulator req/s per busy s',
        'bare req/s per busy s',
        'per busy s emulator/bare',
        'non-200',
      ],
      loadRows,
    );
    console.log(`(section took ${fmt((now() - start) / 1000, 1)} s)`);
    console.log();

    // 3b. Filtered pages against the unfiltered page of the same run (issue 14: within 2x).
    const unfiltered = CASES[0].label;
    const filteredRows = [];
    for (const c of chains.filter((c) => c.filter)) {
      for (const page of ['first', 'deep']) {
        const cost = capacity.get(`${unfiltered}|${page}`) / capacity.get(`${c.label}|${page}`);
        filteredRows.push([
          c.label,
          page,
          fmt(capacity.get(`${c.label}|${page}`), 0),
          fmt(capacity.get(`${unfiltered}|${page}`), 0),
          ratio(cost, 1),
          cost <= 2 ? 'met' : 'missed',
        ]);
      }
    }
    console.log('## Filtered pages against the unfiltered page (steady state above)');
    console.log();
    console.log(
      '`cost filtered/unfiltered` is the unfiltered req/s per busy second over the filtered one (the server time a filtered page costs, relative to an unfiltered page at the same depth). The filters have an equality on `labels`, a declared index of the forwarding-rule collections.',
    );
    console.log();
    table(
      [
        'case',
        'page',
        'filtered req/s per busy s',
        'unfiltered req/s per busy s',
        'cost filtered/unfiltered',
        'aim (≤ 2x)',
      ],
      filteredRows,
    );

    // 3c. Compression: the unfiltered first page, with and without Accept-Encoding: gzip.
    start = now();
    const firstKey = chains[0].keys[0];
    const compressionRows = [];
    for (const [label, accept] of [
      ['identity (Accept-Encoding: identity)', 'identity'],
      ['gzip (Accept-Encoding: gzip)', 'gzip'],
    ]) {
      // A User-Agent that says gzip, as Google's APIs (and the emulator) require for gzip.
      const headers = {
        ...HEADERS,
        'accept-encoding': accept,
        'user-agent': 'listkit-bench (gzip)',
      };
      const wire = await wireBytes(info.emulatorUrl + firstKey, headers);
      await load(worker, info.emulatorUrl + firstKey, WARMUP_SECONDS, serverGcMs, headers);
      const samples = [];
      for (let round = 0; round < ROUNDS; round++) {
        samples.push(await load(worker, info.emulatorUrl + firstKey, SECONDS, serverGcMs, headers));
      }
      const latencies = [];
      for (let i = 0; i < 30; i++) {
        const sent = now();
        await get(info.emulatorUrl + firstKey, headers);
        latencies.push(now() - sent);
      }
      const m = (field) => median(samples.map((r) => r[field]));
      compressionRows.push([
        label,
        wire.encoding ?? '–',
        fmt(wire.bytes / 1e3, 1),
        fmt(m('rps'), 0),
        fmt(m('capacity'), 0),
        fmt((m('rps') * wire.bytes) / 1e6, 1),
        pct(m('server')),
        pct(m('client')),
        fmt(median(latencies), 2),
      ]);
    }
    console.log(`## Compression (unfiltered first page, ${CONCURRENCY} concurrent clients)`);
    console.log();
    console.log(
      '`wire kB` is the body as sent (read with node:http, which does not decompress); `wire MB/s` is req/s times that; the client (fetch) decompresses, and its time is in `client busy`. `ms/page, one client` is the median of 30 requests one after another. The emulator gzips at level 1 on the thread pool, above 8 KiB.',
    );
    console.log();
    table(
      [
        'request',
        'content-encoding',
        'wire kB',
        'req/s',
        'req/s per busy s',
        'wire MB/s',
        'server busy',
        'client busy',
        'ms/page, one client',
      ],
      compressionRows,
    );
    // What each encoding would cost on the same page (zlib in this thread, synchronously).
    const plainPage = (await get(info.emulatorUrl + firstKey)).bytes;
    const brotli = (quality) => (bytes) =>
      brotliCompressSync(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
    const encoders = [
      ['gzip level 1 (the emulator)', (bytes) => gzipSync(bytes, { level: 1 })],
      ['gzip level 6 (zlib default)', (bytes) => gzipSync(bytes, { level: 6 })],
      ['br quality 1', brotli(1)],
      ['br quality 4', brotli(4)],
    ];
    const encoderRows = [];
    for (const [label, encode] of encoders) {
      const out = encode(plainPage);
      const times = [];
      for (let i = 0; i < 15; i++) {
        const t = now();
        encode(plainPage);
        times.push(now() - t);
      }
      encoderRows.push([
        label,
        fmt(out.length / 1e3, 1),
        `${fmt(plainPage.length / out.length, 1)}x`,
        fmt(median(times), 2),
      ]);
    }
    console.log(
      `Encodings of the same page (${fmt(plainPage.length / 1e3, 1)} kB), compressed in the client thread (median of 15):`,
    );
    console.log();
    table(['encoding', 'kB', 'ratio', 'ms to compress'], encoderRows);
    console.log(`(section took ${fmt((now() - start) / 1000, 1)} s)`);
    console.log();

    // 4. Where an emulator page's time goes, in-process (no socket), in the server thread.
    start = now();
    const breakdown = await call('breakdown', { pages: breakdownPages });
    console.log(
      '## One page inside the server thread, without the socket (ms per call, fastest of 9 samples)',
    );
    console.log();
    console.log(
      "`emulator` and `bare` are `app.fetch(new Request(url))` plus reading the body (no socket; no Accept-Encoding, so no gzip); `list` is the collection's list behind the route (parse filter and orderBy, open the token, seek or scan, seal the next token); `parse` is compileFilter + parseOrderBy; `open` and `seal` are one page token (AES-256-GCM and the SHA-256 of the binding, through node:crypto); `rest` is emulator − bare − list: the route around the list (auth, query parameters, writing the page's bytes, the request log).",
    );
    console.log();
    table(
      [
        'page',
        'kB',
        'emulator',
        'bare',
        'emulator − bare',
        'list',
        'parse',
        'open',
        'seal',
        'rest',
      ],
      breakdown.map(({ label, bytes, ms }) => [
        label,
        fmt(bytes / 1e3, 0),
        fmt(ms.emulator, 3),
        fmt(ms.bare, 3),
        fmt(ms.emulator - ms.bare, 3),
        fmt(ms.list, 3),
        fmt(ms.parse, 3),
        ms.open === undefined ? '–' : fmt(ms.open, 3),
        fmt(ms.seal, 3),
        fmt(ms.emulator - ms.bare - ms.list, 3),
      ]),
    );
    console.log(`(section took ${fmt((now() - start) / 1000, 1)} s)`);
    // Bounded: a keep-alive socket must not hold the run open.
    await Promise.race([call('close'), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  } finally {
    await worker.terminate();
  }
}

if (isMainThread) await main();
else await serverThread();
