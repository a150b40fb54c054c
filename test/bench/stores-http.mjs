// Stores over HTTP: the real `listkit serve` process (packages/service/dist/cli.js, what users
// run) on each store — memory (the default), PGlite (--data-dir) and PostgreSQL (--database) —
// with one region of 10^4 and then 10^5 forwarding rules, side by side in one run:
//
// - list: pages of 500 following nextPageToken (unfiltered, and `labels.env = prod`): the median
//   ms of one client's consecutive pages, and pages/s of N concurrent clients each walking the
//   listing (back to the first page at the end);
// - insert: inserts/s of N concurrent clients posting rules of unique names into the region
//   (each without an address, so each takes an ephemeral one), answered after the write commits
//   (operation policy `immediate`);
// - two processes on one PostgreSQL against one, at the largest size: the same total clients,
//   split over both, the throughput summed.
//
// How the region is filled (the fastest honest route per store, printed in the header): the memory
// process through its control plane (POST /_listkit/seed, the rules from sampleForwardingRules);
// the SQL stores by bulk INSERTs of the same rules, exactly as the memory emulator stored them
// (read back with GET /_listkit/state), in the store's table layout (the store's own migrations
// applied first, the rows from the store's table description), before their process starts
// (PGlite is stopped and restarted around it: one process per data directory). PostgreSQL gets an
// ANALYZE after each fill (what autovacuum does after such growth); PGlite none (it runs no
// autovacuum, and the store runs no ANALYZE).
//
// The peer in the same run is the memory store: every figure is also shown against it.
// PostgreSQL rows need LISTKIT_PG_URL (`.ci/with-postgres.sh pnpm bench`); without it they are
// skipped, saying so. A benchmark, not a test: it prints tables and never fails on a figure.
//
// Knobs (environment): BENCH_STORES_SIZES (default "10000,100000"), BENCH_STORES_CLIENTS
// (concurrent clients of the throughput windows, default 8), BENCH_STORES_SECONDS (length of one
// window, default 5), BENCH_STORES_PAGES (consecutive pages timed for one client, default 20).
// A quick run: BENCH_STORES_SIZES=1000,3000 BENCH_STORES_SECONDS=1 BENCH_STORES_PAGES=5.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sqlTable } from '@listkit/query/sql';
import {
  forwardingRuleSchema,
  migrate,
  openPgliteDatabase,
  openPostgresDatabase,
  SCHEMA_VERSION,
  sampleForwardingRules,
} from '@listkit/service';
import pg from 'pg';

const SIZES = (process.env.BENCH_STORES_SIZES ?? '10000,100000').split(',').map(Number);
const CLIENTS = Number(process.env.BENCH_STORES_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_STORES_SECONDS ?? 5);
const PAGES = Number(process.env.BENCH_STORES_PAGES ?? 20);
const PG_URL = process.env.LISTKIT_PG_URL;
const PAGE = 500;
const PROJECT = 'bench';
const REGION = 'us-central1';
const REGION_PATH = `/compute/v1/projects/${PROJECT}/regions/${REGION}`;
const HEADERS = { authorization: 'Bearer x', 'accept-encoding': 'identity' };
const SECRETS = `stores-http-bench-${randomBytes(12).toString('hex')}`;
const CLI = fileURLToPath(new URL('../../packages/service/dist/cli.js', import.meta.url));
const LISTS = [
  { label: 'unfiltered', query: '' },
  { label: '`labels.env = prod`', query: '&filter=labels.env%20%3D%20prod' },
];

// Bounds: every request and every process start ends.
const REQUEST_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 120_000;
const SEED_CHUNK = 500;
const FILL_BATCH = 1_000;
const WATCHDOG_MS = 60 * 60_000;

const now = () => performance.now();
const median = (xs) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : 'n/a');
const count = (n) => n.toLocaleString('en-US');

/** Prints a Markdown table (first column left-aligned, the rest right-aligned). */
function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, c) => Math.max(3, ...cells.map((row) => row[c].length)));
  const line = (row) =>
    `| ${row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  console.log([line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n'));
  console.log();
}

// ---------------------------------------------------------------------------------------------
// `listkit serve` processes

const children = new Set();

/** Starts `listkit serve` with these flags; resolves its URL and how to stop it. */
function serve(flags) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--no-sample-data', ...flags],
    {
      // The per-request JSON log goes to /dev/null: written, as users run it, but not kept.
      env: { ...process.env, LISTKIT_PAGE_TOKEN_SECRETS: SECRETS, LISTKIT_DATABASE_URL: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  exited.then(() => children.delete(child));
  const stop = async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`listkit serve did not start in ${START_TIMEOUT_MS} ms: ${printed}`));
    }, START_TIMEOUT_MS);
    child.stderr.on('data', (chunk) => {
      printed += chunk.toString();
      const url = /listkit emulator on (http:\/\/\S+)/.exec(printed)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, pid: child.pid, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`listkit serve exited (${code}): ${printed}`));
    });
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

/** One request; a network error or a timeout is reported as status 0 (and why), not thrown. */
async function call(url, { method = 'GET', body } = {}) {
  const sent = now();
  try {
    const res = await fetch(url, {
      method,
      headers: body === undefined ? HEADERS : { ...HEADERS, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  } catch (error) {
    // What went wrong, in the place of a body: a timeout, a reset connection, …
    const cause = error?.cause?.code ?? error?.name ?? 'error';
    return {
      status: 0,
      bytes: Buffer.from(`no answer: ${cause} after ${fmt(now() - sent, 0)} ms`),
    };
  }
}

// Compact or indented (prettyPrint, on by default as Google's): the value's quote follows.
const TOKEN_MARK = Buffer.from('"nextPageToken":');

/** The nextPageToken of a page, found without parsing its 400 kB of JSON. */
function nextTokenOf(bytes) {
  const at = bytes.lastIndexOf(TOKEN_MARK);
  if (at < 0) return undefined;
  const from = bytes.indexOf(0x22, at + TOKEN_MARK.length) + 1;
  return bytes.toString('latin1', from, bytes.indexOf(0x22, from));
}

const pageUrl = (origin, list, token) =>
  `${origin}${REGION_PATH}/forwardingRules?maxResults=${PAGE}${list.query}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;

/** One client, consecutive pages from the first: the median ms of a page (the first left out
 * when there are more). */
async function pageMs(origin, list) {
  const times = [];
  let token;
  let first = Number.NaN;
  for (let i = 0; i <= PAGES; i++) {
    const sent = now();
    const res = await call(pageUrl(origin, list, token));
    if (res.status !== 200) throw new Error(`list answered ${res.status}: ${res.bytes}`);
    if (i > 0) times.push(now() - sent);
    else first = now() - sent;
    token = nextTokenOf(res.bytes);
    if (!token) break;
  }
  return median(times.length > 0 ? times : [first]);
}

/**
 * `clients` concurrent loops over the origins (client i on origin i mod n) for SECONDS, each
 * calling `step(origin, state)` until the window closes; the rate counts answers of 200 over
 * the time until the last call in flight has answered. Reports the servers' CPU use too.
 */
async function window(servers, clients, step) {
  let done = 0;
  let failed = 0;
  const latencies = [];
  const cpuBefore = servers.map((s) => cpuSeconds(s.pid));
  const backends = new Map();
  for (const pid of await backendPids()) backends.set(pid, cpuSeconds(pid));
  const start = now();
  const deadline = start + SECONDS * 1000;
  const client = async (i) => {
    const origin = servers[i % servers.length].url;
    const state = { client: i };
    while (now() < deadline) {
      const sent = now();
      const status = await step(origin, state);
      latencies.push(now() - sent);
      if (status === 200) done++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const elapsed = (now() - start) / 1000;
  const cpu = servers.map((s, i) => (cpuSeconds(s.pid) - cpuBefore[i]) / elapsed);
  let database = 0;
  for (const pid of await backendPids()) {
    const used = cpuSeconds(pid) - (backends.get(pid) ?? 0);
    if (Number.isFinite(used)) database += used;
  }
  return { rate: done / elapsed, failed, ms: median(latencies), cpu, database: database / elapsed };
}

/** Each client walks the listing, following nextPageToken, back to the first page at its end. */
const listStep = (list) => async (origin, state) => {
  const res = await call(pageUrl(origin, list, state.token));
  state.token = res.status === 200 ? nextTokenOf(res.bytes) : undefined;
  return res.status;
};

let inserted = 0;
/** Inserts into REGION acknowledged (200) since the current store started. */
let regionInserts = 0;
/** What the region holds at a size: the seeded rules and the acknowledged inserts. */
const held = (size) => size + regionInserts;
/** One insert of a new name, without an address (it takes an ephemeral one). */
const insertStep = (regionOf) => async (origin, state) => {
  const region = regionOf(state.client);
  const n = ++inserted;
  const res = await call(
    `${origin}/compute/v1/projects/${PROJECT}/regions/${region}/forwardingRules`,
    {
      method: 'POST',
      body: {
        name: `bench-insert-${process.pid}-${n}`,
        IPProtocol: 'TCP',
        portRange: String(8000 + (n % 1000)),
        loadBalancingScheme: 'EXTERNAL',
        target: `projects/${PROJECT}/regions/${region}/targetPools/pool`,
        labels: { env: 'bench' },
      },
    },
  );
  if (res.status === 200 && region === REGION) regionInserts++;
  if (res.status !== 200 && state.reported !== res.status) {
    state.reported = res.status;
    console.log(`  (an insert answered ${res.status}: ${res.bytes.toString().slice(0, 300)})`);
  }
  return res.status;
};
const inRegion = () => REGION;

/** The PostgreSQL backends serving the benchmark's database (none outside its section). */
let backendPids = async () => [];

const cpuText = ({ cpu, database }) =>
  `${cpu.map((c) => `${fmt(c * 100, 0)}%`).join(' + ')}${database ? ` (db ${fmt(database * 100, 0)}%)` : ''}`;

/** The list and insert figures of one store at one size. */
async function measure(servers) {
  const figures = { lists: [] };
  for (const list of LISTS) {
    const ms = await pageMs(servers[0].url, list);
    const load = await window(servers, CLIENTS, listStep(list));
    figures.lists.push({ ms, load });
  }
  figures.insert = await window(servers, CLIENTS, insertStep(inRegion));
  return figures;
}

// ---------------------------------------------------------------------------------------------
// Filling the region

const samples = sampleForwardingRules(Math.max(...SIZES), { project: PROJECT });
const seedEntry = (rule) => ({ project: PROJECT, region: REGION, rule });

/** Seeds samples[from, to) through the control plane, in chunks under the body limit. */
async function seedOverHttp(origin, from, to) {
  for (let at = from; at < to; at += SEED_CHUNK) {
    const chunk = samples.slice(at, Math.min(to, at + SEED_CHUNK)).map(seedEntry);
    const res = await call(`${origin}/_listkit/seed`, {
      method: 'POST',
      body: { forwardingRules: chunk },
    });
    if (res.status !== 200) throw new Error(`seed answered ${res.status}: ${res.bytes}`);
  }
}

/** The seeded rules as the memory emulator stored them (server fields filled), in seed order. */
async function storedRules(origin) {
  const res = await call(`${origin}/_listkit/state`);
  if (res.status !== 200) throw new Error(`state answered ${res.status}`);
  const byName = new Map(
    JSON.parse(res.bytes).forwardingRules.map((entry) => [entry.rule.name, entry.rule]),
  );
  return samples.map((rule) => byName.get(rule.name));
}

/**
 * Whether the process sees the filled rows as the clash rule reads them: an insert repeating the
 * address, protocol and port of the last filled EXTERNAL TCP rule must be refused as in use.
 */
async function clashSeen(origin, filledTo) {
  const twin = samples
    .slice(0, filledTo)
    .findLast((r) => r.loadBalancingScheme === 'EXTERNAL' && r.IPProtocol === 'TCP' && r.portRange);
  const res = await call(`${origin}${REGION_PATH}/forwardingRules`, {
    method: 'POST',
    body: {
      name: `bench-clash-${process.pid}-${++inserted}`,
      IPAddress: twin.IPAddress,
      IPProtocol: 'TCP',
      portRange: twin.portRange,
      loadBalancingScheme: 'EXTERNAL',
      target: `projects/${PROJECT}/regions/${REGION}/targetPools/pool`,
    },
  });
  return res.status === 400 && res.bytes.includes('in-use') ? 'yes' : `NO (${res.status})`;
}

// The store's table layout (packages/service/src/forwarding-rules/sql-rule-tables.ts): the same description, so
// a row here is the row the store writes.
const rulesTable = sqlTable(forwardingRuleSchema, {
  table: 'forwarding_rules',
  required: ['creationTimestamp'],
});
const PARENT = `projects/${PROJECT}/regions/${REGION}`;

/**
 * The address columns of the rows (where the store's layout has them: schema 2 adds `address_key`,
 * `pool_kind`, `pool_index`, which the clash rule and allocation read). The filled rules all have
 * IPv4 addresses in 10.0.0.0/9, outside every ephemeral pool: the canonical text is the address
 * itself and the pool columns are null; anything else is refused rather than written wrong.
 */
function addressColumnsOf(rule) {
  const parts = String(rule.IPAddress).split('.').map(Number);
  const plain = parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p < 256);
  if (!plain || parts[0] !== 10 || parts[1] >= 128 || String(rule.IPAddress) !== parts.join('.')) {
    throw new Error(`fillSql: ${rule.name} has ${rule.IPAddress}, not a plain 10.0.0.0/9 address`);
  }
  return [String(rule.IPAddress), null, null];
}
const ADDRESS_COLUMNS = ['address_key', 'pool_kind', 'pool_index'];

/** Writes rules[from, to) into the store's table by multi-row INSERTs, after its migrations. */
async function fillSql(db, rules, from, to) {
  await migrate(db);
  const present = await db.transaction((tx) =>
    tx.query(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'forwarding_rules'",
    ),
  );
  const names = new Set(present.map((r) => r.column_name));
  const withAddresses = ADDRESS_COLUMNS.every((c) => names.has(c));
  const columns = [
    'parent',
    'project',
    ...rulesTable.insertColumns,
    ...(withAddresses ? ADDRESS_COLUMNS : []),
  ];
  // A column this fill does not know would be left empty: stop instead of measuring wrong rows.
  const known = new Set(columns.map((c) => c.replaceAll('"', '')));
  const unknown = [...names].filter((c) => !known.has(c));
  if (unknown.length > 0) {
    throw new Error(`fillSql: the store's table has columns this fill does not write: ${unknown}`);
  }
  for (let at = from; at < to; at += FILL_BATCH) {
    const params = [];
    const tuples = [];
    for (const rule of rules.slice(at, Math.min(to, at + FILL_BATCH))) {
      const row = [
        PARENT,
        PROJECT,
        ...rulesTable.row(rule),
        ...(withAddresses ? addressColumnsOf(rule) : []),
      ];
      tuples.push(`(${row.map((_, c) => `$${params.length + c + 1}`).join(', ')})`);
      params.push(...row);
    }
    await db.transaction((tx) =>
      tx.query(
        `INSERT INTO forwarding_rules (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
        params,
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The run

async function main() {
  const watchdog = setTimeout(() => {
    console.log(`\nStopped: the benchmark ran longer than ${WATCHDOG_MS / 60_000} minutes.`);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  }, WATCHDOG_MS);
  watchdog.unref();
  const wallStart = now();

  console.log('# Stores over HTTP (`listkit serve`, test/bench/stores-http.mjs)');
  console.log();
  console.log(
    `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}. One region; sizes ${SIZES.map(count).join(', ')} rules; pages of ${PAGE}; ${CLIENTS} concurrent clients per window of ${SECONDS} s; one client's ms/page is the median of ${PAGES} consecutive pages (the first left out). Store schema version ${SCHEMA_VERSION}.`,
  );
  console.log();
  console.log(
    'Fill: memory through POST /_listkit/seed; PGlite and PostgreSQL by bulk INSERT of the rules the memory emulator stored, in the store layout (migrations applied first), before the process opens them; ANALYZE after each PostgreSQL fill, none on PGlite. Rules inserted by the insert window of a smaller size stay: the `rules` column is what the region held when the lists of the size started (seeded plus acknowledged inserts).',
  );
  console.log();

  const rows = [];
  const fills = [];
  const memoryAt = new Map();
  const record = (store, size, rules, clash, figures) => {
    const peer = memoryAt.get(size);
    if (store === 'memory') memoryAt.set(size, figures);
    const vs = (pick) => (peer ? ratio(pick(figures), pick(peer)) : '–');
    const [all, prod] = figures.lists;
    rows.push([
      `${store}, ${count(size)}`,
      count(rules),
      fmt(all.ms, 2),
      fmt(all.load.rate, 0),
      vs((f) => f.lists[0].load.rate),
      fmt(prod.ms, 2),
      fmt(prod.load.rate, 0),
      vs((f) => f.lists[1].load.rate),
      fmt(figures.insert.rate, 1),
      vs((f) => f.insert.rate),
      fmt(figures.insert.ms, 1),
      `${cpuText(all.load)} / ${cpuText(figures.insert)}`,
      all.load.failed + prod.load.failed + figures.insert.failed,
      clash,
    ]);
  };

  // 1. Memory: the peer, and the source of the rows the SQL stores are filled with.
  let rules;
  {
    const server = await serve([]);
    let seeded = 0;
    for (const size of SIZES) {
      const start = now();
      await seedOverHttp(server.url, seeded, size);
      fills.push(`memory to ${count(size)}: ${fmt((now() - start) / 1000, 1)} s`);
      seeded = size;
      const rulesHeld = held(size);
      record('memory', size, rulesHeld, await clashSeen(server.url, size), await measure([server]));
    }
    rules = await storedRules(server.url);
    await server.stop();
  }

  // 2. PGlite in a data directory: filled while no process holds it.
  regionInserts = 0;
  const dir = mkdtempSync(join(tmpdir(), 'listkit-bench-pglite-'));
  try {
    let filled = 0;
    for (const size of SIZES) {
      const start = now();
      const db = await openPgliteDatabase(dir);
      await fillSql(db, rules, filled, size);
      await db.close();
      fills.push(`PGlite to ${count(size)}: ${fmt((now() - start) / 1000, 1)} s`);
      filled = size;
      const server = await serve(['--data-dir', dir]);
      try {
        const rulesHeld = held(size);
        record(
          'PGlite',
          size,
          rulesHeld,
          await clashSeen(server.url, size),
          await measure([server]),
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // 3. PostgreSQL: one database, filled beside the running process; then a second process.
  let scaleRows;
  regionInserts = 0;
  if (PG_URL) {
    const name = `listkit_bench_stores_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    backendPids = async () =>
      (
        await admin.query(
          'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        )
      ).rows.map((r) => r.pid);
    const servers = [];
    try {
      const db = await openPostgresDatabase({ url: url.toString(), maxConnections: 2 });
      let filled = 0;
      for (const size of SIZES) {
        const start = now();
        await fillSql(db, rules, filled, size);
        await db.transaction((tx) => tx.query('ANALYZE'));
        fills.push(`PostgreSQL to ${count(size)}: ${fmt((now() - start) / 1000, 1)} s`);
        filled = size;
        if (servers.length === 0) servers.push(await serve(['--database', url.toString()]));
        const rulesHeld = held(size);
        record(
          'PostgreSQL',
          size,
          rulesHeld,
          await clashSeen(servers[0].url, size),
          await measure(servers),
        );
      }
      await db.close();
      scaleRows = await scaleOut(url.toString(), servers);
    } finally {
      for (const server of servers) await server.stop();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }

  console.log('## Per store and size');
  console.log();
  console.log(
    `\`1 client ms/page\`: one client's consecutive pages; \`pages/s\` and \`inserts/s\`: ${CLIENTS} concurrent clients (answers of 200 per second); \`× memory\`: against the memory store at the same size in this run; \`insert ms\`: median answer time of an insert under that load; \`clash seen\`: an insert repeating the address, protocol and port of a filled rule was refused as in use (the filled rows are visible to the clash rule); \`server CPU\`: the serve process's CPU use during the unfiltered list window / the insert window (100% = one core), and \`db\` that of the PostgreSQL backends of the benchmark's database.`,
  );
  console.log();
  table(
    [
      'store, size',
      'rules',
      '1 client ms/page',
      'pages/s',
      '× memory',
      'prod: 1 client ms/page',
      'prod: pages/s',
      '× memory',
      'inserts/s',
      '× memory',
      'insert ms',
      'server CPU (list / insert)',
      'non-200',
      'clash seen',
    ],
    rows,
  );
  if (!PG_URL) {
    console.log('PostgreSQL rows skipped: set LISTKIT_PG_URL (or run under .ci/with-postgres.sh).');
    console.log();
  }
  console.log(`Fill times: ${fills.join('; ')}.`);
  console.log();

  if (scaleRows) {
    console.log(
      `## Two processes on one PostgreSQL against one (${count(Math.max(...SIZES))}-rule region, ${CLIENTS} clients in all)`,
    );
    console.log();
    console.log(
      `One process serves all ${CLIENTS} clients; then two processes on the same database serve ${Math.ceil(CLIENTS / 2)} and ${Math.floor(CLIENTS / 2)} (answers of 200 per second, summed over both). \`server CPU\` is each serve process's CPU use, and \`db\` that of the PostgreSQL backends of the database.`,
    );
    console.log();
    table(
      ['workload', 'one process', 'two processes', 'two / one', 'server CPU (one / two)'],
      scaleRows,
    );
  } else {
    console.log('Two processes on one PostgreSQL: skipped (no LISTKIT_PG_URL).');
    console.log();
  }
  console.log(
    `stores-http.mjs wall time ${fmt((now() - wallStart) / 1000, 0)} s; load average at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.`,
  );
}

/** One process, then two on the same database, the same total clients. */
async function scaleOut(url, servers) {
  const one = [servers[0]];
  servers.push(await serve(['--database', url]));
  const two = servers;
  const ownRegion = (client) => `bench-region-${process.pid}-${client}`;
  const workloads = [
    ...LISTS.map((list) => ({ label: `list ${list.label}, pages/s`, step: listStep(list) })),
    { label: `inserts/s into the ${REGION} region`, step: insertStep(inRegion) },
    { label: 'inserts/s, each client its own region', step: insertStep(ownRegion) },
  ];
  const rows = [];
  for (const { label, step } of workloads) {
    const a = await window(one, CLIENTS, step);
    const b = await window(two, CLIENTS, step);
    rows.push([
      label,
      fmt(a.rate, 1),
      fmt(b.rate, 1),
      ratio(b.rate, a.rate),
      `${cpuText(a)} / ${cpuText(b)}`,
    ]);
  }
  return rows;
}

try {
  await main();
} finally {
  for (const child of children) child.kill('SIGKILL');
}
